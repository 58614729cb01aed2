"""Expedition scenario tests for the designed journey: the map, the Game
Turn, moving and exploring, the encounter tables, the Warrior Nation, the
Villages and Kingdoms, discoveries and Sources, the end and the winner.
Each test checks the items of ../shared/rulebooks/expedition.checklist.md
named in its docstring, chiefly EX-GAP-01..39 (what the sheet leaves to
the game), against the parts rulesets/expedition.rules marks "Designed";
every die and every draw is forced (explicit chance mode)."""

from __future__ import annotations

import pytest

from rulelang import CHANCE

from expedition_helpers import (GAME, SLOTS, answer, clear_sheet, draw, give, labels, new_game,
                                offered, put, roll, sheet, slot, to_player_turn)

#: The map as the drawing in the ruleset's comment shows it: nine zones.
ZONES = {
    "coast": {"Coast Town", "Mangrove Creek"},
    "thornveld": {"Thorn Scrub", "Grassland"},
    "desert": {"Red Sands", "Salt Pan", "Oasis"},
    "highlands": {"Lookout Rock", "Hill Kingdom", "Granite Scarp"},
    "river": {"River Mouth", "River Bend", "Upper River"},
    "lake": {"West Shore", "Lake Kingdom", "Island"},
    "jungle": {"Rainforest", "Warrior Hills", "Deep Forest", "Lost City"},
    "moon": {"Moon Foothills", "Snowfields"},
    "marshes": {"Reed Maze", "The Source"},
}

#: Quiet rows, so a move brings no harm: the last face of every table.
QUIET = 10


# ---------------------------------------------------------------- helpers

def solo(**stats):
    """A one-explorer game at its first Player Turn, with an empty sheet
    and these stats set (``at`` names a slot)."""
    st = new_game(1)
    clear_sheet(st, 0)
    return put(st, 0, **stats)


def field(st, name, what):
    """A slot's printed value (``terrain``, ``walk``, …) or its state."""
    return st.piece("map", name)[what]


def texts(st, since=0):
    return [e.text for e in st.log[since:]]


def rows(st):
    """The encounter table rows reached, in order."""
    return [e.text for e in st.log if e.kind == "row"]


def turns_taken(st, game_turn):
    """The seats whose Player Turns began in this Game Turn, in order."""
    return [e.player for e in st.log if e.kind == "turn" and e.round == game_turn]


def dests(st):
    """The slots a "Move" would offer now (on a copy), or none."""
    trial = st.clone()
    if "Move" not in offered(trial):
        return set()
    answer(trial, "Move")
    return set(offered(trial))


def go(st, dest, *dice):
    """Move to ``dest`` and force the dice that follow."""
    answer(st, "Move", dest)
    return roll(st, *dice)


TIME_UP = ("Quinine at Time up: Keep it", "Cannabis at Time up: Keep it",
           "Spend an Ammo: +1 Ammo Stock: no")


def camp(st):
    """Make camp, keeping every Resource at Time up; stops at the next
    decision that is not a Time-up spend (or at a die)."""
    answer(st, "Make camp")
    while not st.is_over and st.current_player != CHANCE:
        keep = [m for m in st.legal_moves() if m.label in TIME_UP]
        if not keep:
            break
        st.apply(keep[0])
    return st


def fresh(st, where, **stats):
    """One explorer: put it at ``where`` and make camp, so the next Game
    Turn's first Player Turn starts there (the act phase reads the slot
    once, as it begins, for Explore and Hunt); then set ``stats``.  The
    men eat on the way: set ``food`` here when it matters."""
    put(st, 0, at=where)
    to_player_turn(camp(st))
    return put(st, 0, **stats)


def number_choice(st):
    """The numbers a "choose a number" decision offers (any other label is
    kept as it is, so a missing decision shows in the comparison)."""
    return [int(x) if x.isdigit() else x for x in offered(st)]


# ================================================================ the map

def test_the_map_is_nine_zones_of_twenty_four_slots():
    """EX-GAP-06: the designed map has nine Zones holding 24 slots, each in
    the Zone the drawing puts it in."""
    st = solo()
    assert len(SLOTS) == 24
    zones = {}
    for name in SLOTS:
        zones.setdefault(field(st, name, "zone"), set()).add(name)
    assert zones == ZONES


def test_every_explorer_starts_at_coast_town():
    """EX-GAP-06: every expedition starts on the start slot, Coast Town."""
    st = new_game(3)
    assert [st.stat("at", p) for p in range(3)] == [slot("Coast Town")] * 3
    assert [name for name in SLOTS if field(st, name, "start")] == ["Coast Town"]


@pytest.mark.parametrize("here, neighbours", [
    ("Coast Town", {"Thorn Scrub", "Mangrove Creek"}),
    ("Thorn Scrub", {"Coast Town", "Grassland", "Red Sands", "Lookout Rock"}),
    ("Lookout Rock", {"Thorn Scrub", "Grassland", "Red Sands", "Hill Kingdom", "Upper River"}),
    ("River Bend", {"Grassland", "River Mouth", "Upper River", "Warrior Hills"}),
    ("Upper River", {"Lookout Rock", "River Bend", "Deep Forest"}),
    ("West Shore", {"Hill Kingdom", "Lake Kingdom", "Island", "Lost City"}),
    ("Lost City", {"West Shore", "Deep Forest", "Reed Maze"}),
    ("Island", {"West Shore", "Lake Kingdom"}),
    ("Moon Foothills", {"Lake Kingdom"}),
    ("Oasis", {"Salt Pan"}),
    ("The Source", {"Reed Maze"}),
])
def test_the_slots_offered_are_the_drawings_neighbours(here, neighbours):
    """EX-GAP-05, EX-GAP-06, EX-GAP-08: with Time to spare and no Canoes
    or Pickax, a move may go to any slot the drawing joins to this one by
    a path or a river, and no farther (never across rapids, ≈, nor into a
    slot behind an Impassable, #)."""
    st = solo(at=here)
    assert dests(st) == neighbours


def test_a_slot_is_offered_only_with_the_time_to_enter_it():
    """EX-GAP-05, EX-GAP-04: entering a slot costs its Time; a slot whose
    cost is above the Time left is not offered (Red Sands and Lookout Rock
    cost 2, Coast Town and Grassland 1)."""
    st = solo(at="Thorn Scrub", time=1)
    assert dests(st) == {"Coast Town", "Grassland"}
    put(st, 0, time=2)
    assert dests(st) == {"Coast Town", "Grassland", "Red Sands", "Lookout Rock"}


def test_a_move_spends_the_slots_time_and_brings_its_encounter():
    """EX-GAP-05, EX-GAP-12: the Map Phase move puts the expedition on the
    slot, takes the slot's Time (2 for Red Sands) and rolls the slot's
    encounter table (a d10 on the desert table)."""
    st = solo(at="Thorn Scrub")
    answer(st, "Move", "Red Sands")
    assert st.stat("at", 0) == slot("Red Sands") and st.stat("time", 0) == 8
    assert labels(st) == [f"roll {n}" for n in range(1, 11)]
    roll(st, QUIET)
    assert "desert_encounters: Quiet" in texts(st)
    assert offered(st) == ["Move", "Explore", "Make camp"]


@pytest.mark.parametrize("here, dest, cost", [
    ("Thorn Scrub", "Grassland", 1),        # savanna
    ("Thorn Scrub", "Red Sands", 2),        # desert
    ("Warrior Hills", "Deep Forest", 2),    # jungle
    ("Thorn Scrub", "Lookout Rock", 2),     # mountain
    ("Coast Town", "Mangrove Creek", 2),    # marsh
    ("Grassland", "River Bend", 1),         # water
    ("Hill Kingdom", "West Shore", 1),      # lake
])
def test_entering_a_slot_costs_time_by_terrain(here, dest, cost):
    """EX-GAP-05, EX-GAP-11 (designed): open country and water cost 1 Time
    to enter; desert, jungle, mountain and marsh 2."""
    st = solo(at=here)
    go(st, dest, QUIET)
    assert st.stat("time", 0) == 10 - cost


def test_a_river_link_is_travelled_like_a_path():
    """EX-GAP-08: a river (a border with water on it) joins two slots as a
    path does: Mangrove Creek on the Coast to River Mouth on the Great
    River, for River Mouth's Time (1)."""
    st = solo(at="Mangrove Creek")
    assert "River Mouth" in dests(st)
    go(st, "River Mouth", 10)                 # the Village's Respect-roll fails
    assert st.stat("at", 0) == slot("River Mouth") and st.stat("time", 0) == 9


def test_rapids_are_crossed_only_with_canoes():
    """EX-GAP-08, EX-R-CANOES-01: the rapids between Upper River and West
    Shore are a blocked border; only an expedition with Canoes may cross,
    and since rapids are water it keeps them."""
    st = solo(at="Upper River")
    assert "West Shore" not in dests(st)
    give(st, 0, "Canoes")
    assert "West Shore" in dests(st)
    go(st, "West Shore", QUIET)
    assert st.stat("at", 0) == slot("West Shore") and "Canoes" in sheet(st)


def test_rapids_to_the_reed_maze_need_canoes_too():
    """EX-GAP-08: the Island's rapids to the Reed Maze are blocked without
    Canoes and open with them."""
    st = solo(at="Island")
    assert "Reed Maze" not in dests(st)
    give(st, 0, "Canoes")
    assert dests(st) == {"West Shore", "Lake Kingdom", "Reed Maze"}


def test_a_river_across_a_zone_border_keeps_the_canoes():
    """EX-GAP-08, EX-R-CANOES-05: from the Highlands to the Great Lake by
    river (a border with water on it) the Canoes stay."""
    st = solo(at="Hill Kingdom")
    give(st, 0, "Canoes")
    go(st, "West Shore", QUIET)
    assert "Canoes" in sheet(st)
    assert "the Canoes are left behind at the border" not in texts(st)


def test_a_path_across_a_zone_border_loses_the_canoes():
    """EX-GAP-08, EX-R-CANOES-05/06: from the Great Lake to the Mountains
    of the Moon by path (a border with no water) the Canoes are lost and
    go back to the pool face up."""
    st = solo(at="Lake Kingdom")
    give(st, 0, "Canoes")
    in_pool = st.pile("pool").count("Canoes")
    go(st, "Moon Foothills", QUIET)
    assert "Canoes" not in sheet(st)
    assert st.pile("pool").count("Canoes") == in_pool + 1
    assert "Canoes" not in st.pile("blank_pool")
    assert "the Canoes are left behind at the border" in texts(st)


def test_a_path_inside_a_zone_crosses_no_border():
    """EX-GAP-08 (designed: borders are between zones): a path from Deep
    Forest to the Lost City stays in the Deep Jungle, so the Canoes stay."""
    st = solo(at="Deep Forest")
    give(st, 0, "Canoes")
    go(st, "Lost City", QUIET)
    assert "Canoes" in sheet(st)


@pytest.mark.parametrize("here, behind", [
    ("Hill Kingdom", "Granite Scarp"),
    ("Oasis", "Granite Scarp"),
    ("Moon Foothills", "Snowfields"),
    ("The Source", "Snowfields"),
])
def test_an_impassable_slot_is_entered_only_with_a_pickax(here, behind):
    """EX-GAP-10, EX-R-PICKAX-01: Granite Scarp and the Snowfields lie
    behind Impassables: not offered without a Pickax, entered with one."""
    st = solo(at=here)
    assert behind not in dests(st)
    give(st, 0, "Pickax")
    assert behind in dests(st)
    go(st, behind, QUIET)
    assert st.stat("at", 0) == slot(behind)


def test_the_impassables_are_granite_scarp_and_the_snowfields():
    """EX-GAP-10: the designed map has two slots behind Impassables."""
    st = solo()
    assert {name for name in SLOTS if field(st, name, "impassable")} == \
        {"Granite Scarp", "Snowfields"}


def test_the_water_zones_are_the_river_the_lake_and_the_marshes():
    """EX-GAP-09: the Great River, the Great Lake and the Source Marshes
    are the Water Zones, and every slot in them is in water."""
    st = solo()
    wet = {name for name in SLOTS if field(st, name, "water")}
    assert wet == ZONES["river"] | ZONES["lake"] | ZONES["marshes"]


@pytest.mark.parametrize("here, dest, gain", [
    ("Grassland", "River Bend", 5),      # into the Great River
    ("Upper River", "River Bend", 5),    # water to water counts too
    ("Grassland", "Thorn Scrub", 0),     # the Thornveld is dry
])
def test_fishing_pays_for_a_move_into_a_water_zone(here, dest, gain):
    """EX-GAP-09, EX-GAP-05, EX-R-FISHING-02: a Map Phase move that ends
    in a Water Zone brings 5 Food with Fishing; a move into a dry zone
    brings none."""
    st = solo(at=here)
    give(st, 0, "Fishing")
    go(st, dest, QUIET)
    assert st.stat("food", 0) == 20 + gain


def test_the_diagonal_slots_are_lookout_rock_and_the_moon_foothills():
    """EX-GAP-07: the diagonal slots (where zones meet) of the drawing."""
    st = solo()
    assert {name for name in SLOTS if field(st, name, "diagonal")} == \
        {"Lookout Rock", "Moon Foothills"}


def test_a_telescope_adds_an_encounter_on_a_diagonal_slot():
    """EX-GAP-07, EX-R-TELESCOPE-01: entering Lookout Rock (diagonal) with
    a Telescope, the player may have a second Encounter: a second roll on
    the mountain table (here A Fall: a Porter lost)."""
    st = solo(at="Thorn Scrub")
    give(st, 0, "Telescope")
    go(st, "Lookout Rock", QUIET)
    assert labels(st) == ["Look through the Telescope: one more Encounter: yes",
                          "Look through the Telescope: one more Encounter: no"]
    answer(st, "Look through the Telescope: one more Encounter: yes")
    roll(st, 1)
    assert rows(st) == ["mountain_encounters: Quiet", "mountain_encounters: A Fall"]
    assert st.stat("porters", 0) == 7


def test_a_telescope_adds_nothing_on_a_slot_that_is_not_diagonal():
    """EX-GAP-07: Red Sands is not diagonal: with a Telescope the move
    brings one Encounter only, and the next Player Turn follows."""
    st = solo(at="Thorn Scrub")
    give(st, 0, "Telescope")
    go(st, "Red Sands", QUIET)
    assert offered(st) == ["Move", "Explore", "Make camp"]


# ================================================================ the Game Turn

def test_the_roll_off_winner_equips_first_and_plays_first():
    """EX-GAP-02: the Turn Track starts with the winner of the roll-off
    (seat 1 of 3) and goes clockwise, for buying and for play alike."""
    st = new_game(3, first=1)
    buyers = [e.player for e in st.log if e.kind == "choose" and e.text.startswith("Buy")]
    assert buyers[:6] == [1, 2, 0, 1, 2, 0]
    assert st.stat("first") == 1
    assert st.current_player == 1 and turns_taken(st, 1) == [1]


def test_the_first_place_passes_on_each_game_turn():
    """EX-GAP-02 (designed): as each later Game Turn begins, the Turn
    Track's first place passes clockwise: seat 1, then 2, then 0."""
    st = new_game(3, first=1)
    for p in range(3):
        clear_sheet(st, p)
    for _ in range(3):
        camp(st)
    assert st.round == 2 and st.stat("first") == 2 and st.current_player == 2
    for _ in range(3):
        camp(st)
    assert st.round == 3 and st.stat("first") == 0 and st.current_player == 0
    assert turns_taken(st, 2) == [2, 0, 1]


def test_time_is_set_to_health_plus_five_as_each_game_turn_begins():
    """EX-GAP-01, EX-GAP-04, EX-HS-22: Time is Health + 5 at the start of
    every Game Turn (Health 3 gives 8, Health 1 gives 6); a Health change
    during the Game Turn leaves that Game Turn's Time alone."""
    st = solo(health=3)
    assert st.stat("time", 0) == 10
    camp(st)
    assert st.round == 2 and st.stat("time", 0) == 8
    put(st, 0, health=1)
    camp(st)
    assert st.round == 3 and st.stat("time", 0) == 6


def test_player_turns_alternate_round_the_turn_track():
    """EX-GAP-03: a Player Turn is one action; the Player Turns of a Game
    Turn go round the Turn Track, one action each."""
    st = new_game(2, first=0)
    clear_sheet(st, 0)
    clear_sheet(st, 1)
    assert offered(st) == ["Move", "Explore", "Make camp"]
    go(st, "Thorn Scrub", QUIET)
    assert st.current_player == 1
    go(st, "Mangrove Creek", QUIET)
    assert st.current_player == 0
    go(st, "Grassland", QUIET)
    assert st.current_player == 1
    assert turns_taken(st, 1) == [0, 1, 0, 1]


def test_player_turns_go_on_until_everyones_time_is_up():
    """EX-GAP-03, EX-GAP-04: a player who makes camp has Time 0 and is
    done; the others keep taking Player Turns, and the next Game Turn
    begins only when every explorer's Time is up."""
    st = new_game(2, first=1)
    clear_sheet(st, 0)
    clear_sheet(st, 1)
    camp(st)
    assert st.stat("time", 1) == 0 and st.stat("done", 1)
    go(st, "Thorn Scrub", QUIET)
    go(st, "Grassland", QUIET)
    assert st.round == 1 and st.current_player == 0
    camp(st)
    assert st.round == 2
    assert turns_taken(st, 1) == [1, 0, 0, 0]


@pytest.mark.parametrize("here, options", [
    ("Thorn Scrub", ["Move", "Explore", "Hunt", "Make camp"]),
    ("Red Sands", ["Move", "Explore", "Make camp"]),          # no game in the desert
    ("Hill Kingdom", ["Move", "Make camp"]),                 # nothing to discover
])
def test_the_actions_of_a_player_turn(here, options):
    """EX-GAP-03: a Player Turn offers a move, exploring a slot not yet
    explored, hunting where there is game, or making camp."""
    st = fresh(solo(), here)
    assert offered(st) == options


def test_time_reaching_zero_is_time_up():
    """EX-GAP-04, EX-GAP-01, EX-ASK-19: Time falling to 0 is Time up as
    surely as making camp: the Time-up spends are offered at once (an Ammo
    to refill the Stock) and the next Game Turn follows."""
    st = solo(at="Coast Town", time=1, ammo=5)
    give(st, 0, "Ammo")
    go(st, "Thorn Scrub", QUIET)
    assert st.stat("time", 0) == 0
    assert labels(st) == ["Spend an Ammo: +1 Ammo Stock: yes", "Spend an Ammo: +1 Ammo Stock: no"]
    answer(st, "Spend an Ammo: +1 Ammo Stock: yes")
    assert st.stat("ammo", 0) == 6 and "Ammo" not in sheet(st)
    assert st.round == 2 and st.stat("time", 0) == 10


def test_the_guide_works_once_each_game_turn():
    """EX-GAP-01, EX-GAP-03, EX-R-GUIDE-01/02/05: at the start of a Player
    Turn with Time 8 or less the Guide gives +2 Time, once in the Game
    Turn; at Time up it is ready again for the next one."""
    st = solo(health=3)
    give(st, 0, "Guide")
    camp(st)
    assert st.round == 2 and st.stat("time", 0) == 8
    answer(st, "Use the Guide: +2 Time: yes")
    assert st.stat("time", 0) == 10
    go(st, "Thorn Scrub", QUIET)            # Time 9
    go(st, "Grassland", QUIET)              # Time 8: the Guide is flipped
    assert offered(st) == ["Move", "Explore", "Hunt", "Make camp"]
    camp(st)
    assert st.round == 3 and st.stat("time", 0) == 8
    assert labels(st) == ["Use the Guide: +2 Time: yes", "Use the Guide: +2 Time: no"]


@pytest.mark.parametrize("askaris, porters, eaten", [
    (6, 8, 5),
    (4, 3, 3),
    (2, 2, 2),
    (0, 1, 1),
])
def test_the_men_eat_one_food_for_every_three_as_the_game_turn_ends(askaris, porters, eaten):
    """EX-GAP-32 (designed): as the next Game Turn begins the men eat 1
    Food for every 3 of them, rounded up."""
    st = solo(askaris=askaris, porters=porters, gifts=0, food=9)
    camp(st)
    assert st.round == 2
    assert st.stat("food", 0) == 9 - eaten and st.stat("discontent", 0) == 1


@pytest.mark.parametrize("food, fishing, rise", [
    (3, False, 1),        # 3 of the 5 Food needed: at least half ate
    (2, False, 2),        # fewer than half
    (0, False, 2),
    (2, True, 1),         # EX-R-FISHING-01: never more than 1
])
def test_hungry_men_raise_discontent(food, fishing, rise):
    """EX-GAP-32, EX-DIS-06: short of Food the men eat what there is and
    Discontent rises by 1 if at least half of them ate, by 2 if fewer
    (14 men need 5 Food); with Fishing never by more than 1."""
    st = solo(food=food)
    if fishing:
        give(st, 0, "Fishing")
    camp(st)
    assert st.round == 2
    assert st.stat("food", 0) == 0 and st.stat("discontent", 0) == 1 + rise
    assert "the men go hungry: Discontent {}".format(1 + rise) in texts(st)


def test_discontent_of_five_brings_desertion_rolls_as_the_game_turn_begins():
    """EX-GAP-31 (designed): with Discontent 5 or more when the Game Turn
    ends, the men make desertion rolls: a Porter roll above 10 − Discontent
    loses a Porter (and raises Discontent), then the Askari roll is made
    against the new Discontent."""
    st = solo(discontent=5)
    camp(st)
    roll(st, 6)                             # 6 > 10 - 5: a Porter deserts
    assert st.stat("porters", 0) == 7 and st.stat("discontent", 0) == 6
    roll(st, 5)                             # 5 > 10 - 6: an Askari deserts too
    assert st.stat("askaris", 0) == 5 and st.stat("discontent", 0) == 7
    assert st.round == 2


def test_no_desertion_rolls_below_discontent_five():
    """EX-GAP-31: with Discontent 4 the Game Turn ends with no desertion
    roll; the next Player Turn begins."""
    st = solo(discontent=4)
    camp(st)
    assert st.current_player == 0 and st.round == 2
    assert st.stat("porters", 0) == 8 and st.stat("askaris", 0) == 6


@pytest.mark.parametrize("health, sanity, revolver, porter_die, askari_die, porters, askaris", [
    (5, 5, False, 10, 8, 7, 6),      # 10 > 10 - 1 deserts; then 8 <= 10 - 2 stays
    (5, 5, False, 10, 9, 7, 5),      # the Askari roll sees Discontent 2: 9 > 8
    (5, 5, False, 9, 10, 8, 5),      # 9 <= 9 stays; 10 > 9 deserts
    (5, 5, True, 10, 10, 8, 6),      # the Revolver's -1 keeps both
    (3, 5, False, 9, 8, 7, 6),       # Health 3: -1 as a penalty on the Porters only
    (5, 2, False, 8, 8, 8, 5),       # Sanity 2: -2 as a penalty on the Askaris only
])
def test_grumbling_makes_both_desertion_rolls(health, sanity, revolver, porter_die, askari_die,
                                              porters, askaris):
    """EX-GAP-31, EX-HS-09/12, EX-HS-18/20, EX-R-REVOLVER-02/03: Grumbling
    on the savanna brings a Porter desertion roll (the Health modifier as a
    penalty) and an Askari desertion roll (the Sanity modifier as a
    penalty), each a d10, −1 with a Revolver; above 10 − Discontent one
    man deserts (and the Askari roll sees the Discontent a Porter's
    desertion has just raised)."""
    st = solo(at="Thorn Scrub", health=health, sanity=sanity)
    if revolver:
        give(st, 0, "Revolver")
    go(st, "Grassland", 6, porter_die)
    assert st.stat("discontent", 0) == 1 + (8 - st.stat("porters", 0))
    roll(st, askari_die)
    assert st.stat("porters", 0) == porters and st.stat("askaris", 0) == askaris


# ================================================================ encounters

@pytest.mark.parametrize("here, dest, face, row", [
    ("Thorn Scrub", "Grassland", 1, "savanna_encounters: Warband"),
    ("Thorn Scrub", "Grassland", 2, "savanna_encounters: Game Herd"),
    ("Thorn Scrub", "Grassland", 3, "savanna_encounters: Tusk"),
    ("Thorn Scrub", "Grassland", 4, "savanna_encounters: Wildlife"),
    ("Thorn Scrub", "Grassland", 5, "savanna_encounters: Fever"),
    ("Thorn Scrub", "Grassland", 6, "savanna_encounters: Grumbling"),
    ("Thorn Scrub", "Grassland", 7, "savanna_encounters: Quiet"),
    ("Thorn Scrub", "Grassland", 10, "savanna_encounters: Quiet"),
    ("Warrior Hills", "Deep Forest", 1, "jungle_encounters: Warband"),
    ("Warrior Hills", "Deep Forest", 2, "jungle_encounters: Lost"),
    ("Warrior Hills", "Deep Forest", 3, "jungle_encounters: Fever"),
    ("Warrior Hills", "Deep Forest", 4, "jungle_encounters: Medicinal Plants"),
    ("Warrior Hills", "Deep Forest", 5, "jungle_encounters: Wildlife"),
    ("Warrior Hills", "Deep Forest", 6, "jungle_encounters: Dark Forest"),
    ("Warrior Hills", "Deep Forest", 7, "jungle_encounters: Tusk"),
    ("Warrior Hills", "Deep Forest", 8, "jungle_encounters: Quiet"),
    ("Thorn Scrub", "Red Sands", 1, "desert_encounters: Thirst"),
    ("Thorn Scrub", "Red Sands", 2, "desert_encounters: Thirst"),
    ("Thorn Scrub", "Red Sands", 3, "desert_encounters: Lost"),
    ("Thorn Scrub", "Red Sands", 4, "desert_encounters: Warband"),
    ("Thorn Scrub", "Red Sands", 5, "desert_encounters: Mirage"),
    ("Thorn Scrub", "Red Sands", 6, "desert_encounters: Grumbling"),
    ("Thorn Scrub", "Red Sands", 7, "desert_encounters: Quiet"),
    ("Thorn Scrub", "Lookout Rock", 1, "mountain_encounters: A Fall"),
    ("Thorn Scrub", "Lookout Rock", 2, "mountain_encounters: Cold"),
    ("Thorn Scrub", "Lookout Rock", 3, "mountain_encounters: Lost"),
    ("Thorn Scrub", "Lookout Rock", 4, "mountain_encounters: Wildlife"),
    ("Thorn Scrub", "Lookout Rock", 5, "mountain_encounters: Thin Air"),
    ("Thorn Scrub", "Lookout Rock", 6, "mountain_encounters: Grumbling"),
    ("Thorn Scrub", "Lookout Rock", 7, "mountain_encounters: Quiet"),
    ("Grassland", "River Bend", 1, "water_encounters: Hippos"),
    ("Grassland", "River Bend", 2, "water_encounters: Warband"),
    ("Grassland", "River Bend", 3, "water_encounters: Fever"),
    ("Grassland", "River Bend", 4, "water_encounters: Fish"),
    ("Grassland", "River Bend", 5, "water_encounters: Tusk"),
    ("Grassland", "River Bend", 6, "water_encounters: Lost"),
    ("Grassland", "River Bend", 7, "water_encounters: Crocodiles"),
    ("Grassland", "River Bend", 8, "water_encounters: Quiet"),
    ("Coast Town", "Mangrove Creek", 4, "water_encounters: Fish"),     # a marsh
    ("Hill Kingdom", "West Shore", 4, "water_encounters: Fish"),       # a lake
])
def test_each_terrain_rolls_on_its_own_table(here, dest, face, row):
    """EX-GAP-12 (designed): entering a slot that is no Village or Kingdom
    rolls a d10 on its terrain's table (savanna, jungle, desert, mountain;
    water, lake and marsh share the water table); each face gives the row
    the ruleset prints."""
    st = solo(at=here)
    go(st, dest, face)
    assert rows(st) == [row]


def test_a_quiet_encounter_changes_nothing():
    """EX-GAP-12: a Quiet row costs nothing but the move's Time."""
    st = solo(at="Thorn Scrub")
    before = {k: st.stat(k, 0) for k in ("askaris", "porters", "ammo", "health", "sanity",
                                         "gifts", "food", "discontent")}
    go(st, "Grassland", QUIET)
    assert {k: st.stat(k, 0) for k in before} == before and st.stat("time", 0) == 9


def test_a_warband_beaten_off_costs_only_the_ammo_roll():
    """EX-GAP-19, EX-ASK-04, EX-GAP-33: the Ambush-roll is a d10 against
    the Askaris (Ammo equal: no modifier); at or below them the Warband is
    beaten off; the fight calls for an Ammo-roll (here above the Stock)."""
    st = solo(at="Thorn Scrub")
    go(st, "Grassland", 1, 6, 7)
    assert "Ambush-roll 6: the Warband is beaten off" in texts(st)
    assert (st.stat("askaris", 0), st.stat("porters", 0), st.stat("ammo", 0)) == (6, 8, 6)
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (10, 20)
    assert offered(st) == ["Move", "Explore", "Hunt", "Make camp"]


def test_a_warband_that_gets_through_kills_men_and_takes_items():
    """EX-GAP-19, EX-GAP-33 (designed): above the Askaris the Warband
    strikes: an Askari and a Porter die (Discontent +2) and 2 Items are
    taken; the Ammo-roll at or below the Stock lowers it by 1."""
    st = solo(at="Thorn Scrub")
    go(st, "Grassland", 1, 7, 6)
    assert "Ambush-roll 7: the Warband strikes" in texts(st)
    answer(st, "Gifts among the Items lost: 1")
    assert (st.stat("askaris", 0), st.stat("porters", 0), st.stat("ammo", 0)) == (5, 7, 5)
    assert st.stat("discontent", 0) == 3
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (9, 19)


def test_a_game_herd_is_a_hunt_that_costs_no_time():
    """EX-GAP-20: a Game Herd on the savanna is a hunt without its Time:
    Success-roll 5 ≤ 6 Askaris, an Ammo-roll (10: no loss), and a Food-roll
    of 4 brings twice that in Food."""
    st = solo(at="Thorn Scrub")
    go(st, "Grassland", 2, 5, 10, 4)
    assert st.stat("food", 0) == 28 and st.stat("time", 0) == 9
    assert st.stat("ammo", 0) == 6


@pytest.mark.parametrize("success, food", [(6, 26), (7, 20)])
def test_a_hunt_costs_two_time_and_succeeds_at_or_below_the_askaris(success, food):
    """EX-GAP-20, EX-ASK-02 (designed): a hunt costs 2 Time where there is
    game; the Success-roll is a d10 against the Askaris (6); on success the
    Food-roll, a d6 (3), brings twice its result in Food."""
    st = fresh(solo(), "Thorn Scrub", food=20)
    answer(st, "Hunt")
    assert st.stat("time", 0) == 8
    roll(st, success, 10)
    if success <= 6:
        roll(st, 3)
    assert st.stat("food", 0) == food
    assert offered(st) == ["Move", "Explore", "Hunt", "Make camp"]


def test_a_hunt_needs_two_time():
    """EX-GAP-20: with 1 Time left there is no hunt."""
    st = fresh(solo(), "Thorn Scrub", time=1)
    assert "Hunt" not in offered(st)


@pytest.mark.parametrize("die, stock", [(6, 5), (7, 6)])
def test_a_hunt_calls_for_an_ammo_roll(die, stock):
    """EX-GAP-33 (designed), EX-ASK-17/18: the shots of a hunt call for an
    Ammo-roll: a d10 at or below the Stock lowers it by 1."""
    st = fresh(solo(), "Thorn Scrub")
    answer(st, "Hunt")
    roll(st, 10, die)                       # the hunt fails; the shots were fired
    assert st.stat("ammo", 0) == stock


def test_a_tusk_hunt_brings_a_resource_drawn_blind_from_the_pool():
    """EX-GAP-13, EX-NEW-04, EX-EQP-12 (designed): a Tusk is a hunting
    Success-roll for ivory; on success one Resource is drawn at random from
    the blank pool onto the sheet."""
    st = solo(at="Thorn Scrub")
    blank = list(st.pile("blank_pool"))
    go(st, "Grassland", 3, 6, 10)
    assert sorted(offered(st)) == sorted({f"draw {c}" for c in blank})
    draw(st, "Diary")
    assert sheet(st) == ["Diary"]
    assert st.pile("blank_pool").count("Diary") == blank.count("Diary") - 1


def test_a_failed_tusk_hunt_brings_nothing():
    """EX-GAP-13: a Tusk Success-roll above the Askaris: the elephants get
    away and nothing is drawn (the Ammo-roll is still made)."""
    st = solo(at="Thorn Scrub")
    go(st, "Grassland", 3, 7, 6)
    assert "the elephants get away" in texts(st)
    assert sheet(st) == [] and st.stat("ammo", 0) == 5
    assert st.current_player == 0


@pytest.mark.parametrize("die, drawn, porters", [(3, True, 8), (4, False, 8), (6, False, 7)])
def test_wildlife_brings_a_resource_or_a_beast(die, drawn, porters):
    """EX-GAP-13, EX-NEW-05 (designed): Wildlife rolls a d6: 1 to 3 brings
    specimens worth a random Resource from the pool; 4 or 5 nothing; 6 a
    beast that kills a Porter."""
    st = solo(at="Thorn Scrub")
    go(st, "Grassland", 4, die)
    if drawn:
        draw(st, "Books")
    assert sheet(st) == (["Books"] if drawn else [])
    assert st.stat("porters", 0) == porters


@pytest.mark.parametrize("here, dest, face", [
    ("Thorn Scrub", "Grassland", 5),        # Fever
    ("Warrior Hills", "Deep Forest", 3),    # Fever
    ("Thorn Scrub", "Lookout Rock", 2),     # Cold
    ("Grassland", "River Bend", 3),         # Fever
])
def test_fever_and_cold_are_health_rolls(here, dest, face):
    """EX-GAP-12, EX-ROL-01/02: Fever and Cold call for a Health-roll: a
    d6 at or below Health (5 = Sanity: no modifier) loses 1 Health."""
    st = solo(at=here)
    go(st, dest, face, 5)
    assert st.stat("health", 0) == 4 and st.stat("sanity", 0) == 5


@pytest.mark.parametrize("here, dest, face", [
    ("Warrior Hills", "Deep Forest", 6),    # Dark Forest
    ("Thorn Scrub", "Red Sands", 5),        # Mirage
    ("Thorn Scrub", "Lookout Rock", 5),     # Thin Air
])
def test_dark_forest_mirage_and_thin_air_are_sanity_rolls(here, dest, face):
    """EX-GAP-12, EX-ROL-07/08: these rows call for a Sanity-roll: a d6 at
    or below Sanity loses 1 Sanity."""
    st = solo(at=here)
    go(st, dest, face, 5)
    assert st.stat("sanity", 0) == 4 and st.stat("health", 0) == 5


def test_being_lost_costs_three_time_and_a_sanity_roll():
    """EX-GAP-30 (designed): Lost costs 3 Time and a Sanity-roll."""
    st = solo(at="Thorn Scrub")
    go(st, "Red Sands", 3, 5)
    assert st.stat("time", 0) == 10 - 2 - 3 and st.stat("sanity", 0) == 4


@pytest.mark.parametrize("held, dice, lost", [
    (("Guide",), (3,), False),                   # the Guide: 1 to 3
    (("Guide",), (4,), True),
    (("Surveying",), (2,), False),               # Surveying: 1 or 2
    (("Surveying",), (3,), True),
    (("Guide", "Surveying"), (4, 2), False),     # two separate chances
])
def test_a_guide_or_surveying_may_escape_being_lost(held, dice, lost):
    """EX-GAP-30, EX-R-GUIDE-04, EX-R-SURVEYING-03 (designed): a Guide
    escapes Lost on a d6 of 1 to 3, Surveying on 1 or 2, each a chance of
    its own."""
    st = solo(at="Thorn Scrub")
    give(st, 0, *held)
    go(st, "Red Sands", 3, *dice)
    if lost:
        roll(st, 6)                         # the Sanity-roll: no harm
    assert st.stat("time", 0) == (5 if lost else 8)


@pytest.mark.parametrize("diary, die, health", [(False, 5, 4), (False, 4, 3), (True, 4, 4)])
def test_medicinal_plants_may_restore_health(diary, die, health):
    """EX-GAP-23, EX-R-DIARY-01 (designed; higher is better): Medicinal
    Plants roll a d6, +1 with a Diary; 5 or more recovers 1 Health."""
    st = solo(at="Warrior Hills", health=3)
    if diary:
        give(st, 0, "Diary")
    go(st, "Deep Forest", 4, die)
    assert st.stat("health", 0) == health


@pytest.mark.parametrize("canteen, dice, health", [
    (False, (), 4), (True, (3,), 5), (True, (4,), 4)])
def test_thirst_costs_a_health_unless_the_canteen_saves_it(canteen, dice, health):
    """EX-GAP-29, EX-R-CANTEEN-02 (designed): Thirst costs 1 Health; with a
    Canteen a d6 of 1 to 3 escapes it."""
    st = solo(at="Thorn Scrub")
    if canteen:
        give(st, 0, "Canteen")
    go(st, "Red Sands", 1, *dice)
    assert st.stat("health", 0) == health


@pytest.mark.parametrize("here, dest, face, row", [
    ("Thorn Scrub", "Lookout Rock", 1, "mountain_encounters: A Fall"),
    ("Grassland", "River Bend", 7, "water_encounters: Crocodiles"),
])
def test_a_fall_and_crocodiles_kill_a_porter(here, dest, face, row):
    """EX-GAP-12 (designed): A Fall in the mountains and Crocodiles in the
    water each kill a Porter, raising Discontent by 1."""
    st = solo(at=here)
    go(st, dest, face)
    assert rows(st) == [row]
    assert st.stat("porters", 0) == 7 and st.stat("discontent", 0) == 2


def test_fish_bring_four_food():
    """EX-GAP-12, EX-GAP-32 (designed): Fish in the water bring 4 Food."""
    st = solo(at="Grassland")
    go(st, "River Bend", 4)
    assert st.stat("food", 0) == 24


def test_hippos_take_three_items():
    """EX-GAP-12, EX-GAP-38 (designed): Hippos take 3 Items."""
    st = solo(at="Grassland")
    go(st, "River Bend", 1)
    answer(st, "Gifts among the Items lost: 2")
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (8, 19)


# ---------------------------------------------------------------- Items

def test_items_lost_to_hippos_are_any_mix_the_player_chooses():
    """EX-POR-15, EX-GAP-38: of the 3 Items Hippos take, the player says
    how many are Gifts (0 to 3), the rest being Food."""
    st = solo(at="Grassland")
    go(st, "River Bend", 1)
    assert number_choice(st) == [0, 1, 2, 3]
    answer(st, "Gifts among the Items lost: 0")
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (10, 17)


def test_items_lost_to_hippos_take_gifts_when_food_runs_short():
    """EX-POR-15: with 1 Food, at least 2 of the 3 Items must be Gifts."""
    st = solo(at="Grassland", food=1)
    go(st, "River Bend", 1)
    assert number_choice(st) == [2, 3]
    answer(st, "Gifts among the Items lost: 2")
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (8, 0)


def test_items_lost_to_a_warband_are_any_mix_the_player_chooses():
    """EX-POR-15, EX-GAP-38: of the 2 Items a Warband takes the player
    chooses the mix (0 to 2 Gifts)."""
    st = solo(at="Thorn Scrub")
    go(st, "Grassland", 1, 7, 10)
    assert number_choice(st) == [0, 1, 2]
    answer(st, "Gifts among the Items lost: 2")
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (8, 20)


def test_items_stolen_by_a_village_are_any_mix_the_player_chooses():
    """EX-POR-15, EX-GAP-38: of the 2 Items a Village steals the player
    chooses the mix; with 1 Gift the choice is 0 or 1."""
    st = solo(at="Salt Pan", gifts=1)
    go(st, "Oasis", 7)
    assert number_choice(st) == [0, 1]
    answer(st, "Gifts among the Items lost: 0")
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (1, 18)


# ---------------------------------------------------------------- the Warrior Nation

def any_ammo_roll(st):
    """The Warrior Nation's Ammo-roll (a fight:
    test_a_warrior_nation_ambush_calls_for_an_ammo_roll): 10, no loss."""
    return roll(st, 10)


@pytest.mark.parametrize("ambush, askaris, discontent", [(7, 5, 2), (6, 6, 1)])
def test_the_warrior_nation_takes_an_askari_on_a_failed_ambush_roll(ambush, askaris, discontent):
    """EX-GAP-18 (designed): entering Warrior Hills, after its jungle
    encounter, the Warrior Nation makes an Ambush-roll (a d10 against the
    Askaris); above them it takes an Askari (Discontent +1)."""
    st = solo(at="Rainforest")
    go(st, "Warrior Hills", QUIET, ambush)
    any_ammo_roll(st)
    assert st.stat("askaris", 0) == askaris and st.stat("discontent", 0) == discontent
    assert st.current_player == 0


def test_a_quinine_saves_the_askari_from_the_warrior_nation():
    """EX-GAP-18, EX-R-QUININE-06: a Quinine spent keeps the Askari the
    Warrior Nation would take; no Discontent; the chit goes back blank."""
    st = solo(at="Rainforest")
    give(st, 0, "Quinine")
    go(st, "Warrior Hills", QUIET, 9)
    any_ammo_roll(st)
    answer(st, "Spend a Quinine to keep the Askari: yes")
    assert st.stat("askaris", 0) == 6 and st.stat("discontent", 0) == 1
    assert "Quinine" not in sheet(st) and "Quinine" in st.pile("blank_pool")


def test_a_warrior_nation_ambush_calls_for_an_ammo_roll():
    """EX-GAP-33, EX-GAP-18: the ruleset designs the Ammo-roll "after every
    hunt and every fight" (its comment on ``ammo_roll``), and the Warrior
    Nation's Ambush-roll is a fight "as against a Warband": it must call for
    an Ammo-roll too, whatever the Ambush-roll's result (here the Warrior
    Nation lets the expedition pass, and the Ammo-roll of 6 lowers the
    Stock of 6)."""
    st = solo(at="Rainforest")
    go(st, "Warrior Hills", QUIET, 6)
    assert st.current_player == CHANCE, "no Ammo-roll comes with the Warrior Nation's Ambush-roll"
    roll(st, 6)
    assert "Ambush-roll 6: the Warrior Nation lets the expedition pass" in texts(st)
    assert st.stat("ammo", 0) == 5


def test_only_warrior_hills_holds_a_warrior_nation():
    """EX-GAP-18: entering Deep Forest (jungle, no Warrior Nation) brings
    the jungle encounter only, with no Ambush-roll."""
    st = solo(at="Warrior Hills")
    go(st, "Deep Forest", QUIET)
    assert st.current_player == 0 and not any("Ambush-roll" in t for t in texts(st))
    assert {n for n in SLOTS if field(st, n, "warriors")} == {"Warrior Hills"}


# ================================================================ Villages

def test_a_village_respects_the_expedition_at_or_below_its_askaris():
    """EX-GAP-14, EX-GAP-16, EX-ASK-03 (designed): entering a Village its
    Respect-roll is a d10 against the Askaris; 6 with 6 Askaris respects
    the expedition, and the player may then offer Gifts for its liking."""
    st = solo(at="River Bend")
    go(st, "River Mouth", 6)
    assert "Respect-roll 6: the Village respects the expedition" in texts(st)
    assert number_choice(st) == [0, 1, 2, 3, 4]


def test_a_village_steals_two_items_when_its_respect_roll_fails():
    """EX-GAP-14, EX-GAP-16 (designed): a Respect-roll above the Askaris:
    the Village steals 2 Items, and no liking is sought."""
    st = solo(at="River Bend")
    go(st, "River Mouth", 7)
    assert "Respect-roll 7: the Village steals from the expedition" in texts(st)
    answer(st, "Gifts among the Items lost: 1")
    assert (st.stat("gifts", 0), st.stat("food", 0)) == (9, 19)
    assert offered(st) == ["Move", "Explore", "Make camp"]


@pytest.mark.parametrize("sanity, revolver, die, respected", [
    (3, False, 6, False),     # Sanity 3: -1 as a penalty, 7 > 6
    (3, True, 6, True),       # the Revolver's -1 on the die offsets it
    (5, True, 7, True),       # 7 - 1 = 6
])
def test_the_respect_roll_modifiers(sanity, revolver, die, respected):
    """EX-GAP-16, EX-HS-14, EX-R-REVOLVER-01: the Respect-roll takes the
    Sanity modifier as a penalty and −1 with a Revolver."""
    st = solo(at="River Bend", sanity=sanity)
    if revolver:
        give(st, 0, "Revolver")
    go(st, "River Mouth", die)
    assert any(("respects" if respected else "steals") in t for t in texts(st))


@pytest.mark.parametrize("die, liked", [(4, True), (5, False)])
def test_the_like_roll_is_won_at_or_below_twice_the_gifts_offered(die, liked):
    """EX-GAP-15, EX-GAP-38 (designed): the player offers up to 4 Gifts,
    which are given whatever happens; the Like-roll, a d10, at or below
    twice the offer wins the Village's favour."""
    st = solo(at="River Bend")
    go(st, "River Mouth", 1)
    answer(st, "Gifts offered to the Village: 2")
    assert st.stat("gifts", 0) == 8
    roll(st, die)
    if liked:
        assert "Like-roll 4: the Village likes the expedition" in texts(st)
        assert "Two Porters" in offered(st)
    else:
        assert "Like-roll 5: the Village is not won over" in texts(st)
        assert offered(st) == ["Move", "Explore", "Make camp"]


def test_the_like_roll_takes_the_health_modifier_as_a_penalty():
    """EX-GAP-15, EX-HS-06: at Health 3 the Like-roll gets −1 as a penalty:
    4 becomes 5, above twice the 2 Gifts."""
    st = solo(at="River Bend", health=3)
    go(st, "River Mouth", 1)
    answer(st, "Gifts offered to the Village: 2")
    roll(st, 4)
    assert "Like-roll 5: the Village is not won over" in texts(st)


def test_no_gifts_offered_means_no_like_roll():
    """EX-GAP-15: offering no Gifts makes no Like-roll and wins no favour."""
    st = solo(at="River Bend")
    go(st, "River Mouth", 1)
    answer(st, "Gifts offered to the Village: 0")
    assert st.current_player == 0 and offered(st) == ["Move", "Explore", "Make camp"]
    assert st.stat("gifts", 0) == 10


def test_a_cannabis_spent_wins_the_village_without_gifts():
    """EX-GAP-15, EX-R-CANNABIS-01: a Cannabis spent before the Like-roll
    makes it succeed: no Gifts, no die, the favour at once."""
    st = solo(at="River Bend")
    give(st, 0, "Cannabis")
    go(st, "River Mouth", 1)
    answer(st, "Spend a Cannabis: the Like-roll succeeds: yes")
    assert st.current_player == 0 and "Food" in offered(st)
    assert st.stat("gifts", 0) == 10
    assert "Cannabis" not in sheet(st) and "Cannabis" in st.pile("blank_pool")


def liked_at(where, frm, **stats):
    """Respected and liked by the Village at ``where`` (entered from
    ``frm``): the state waits at its favour."""
    st = solo(at=frm, **stats)
    give(st, 0, "Cannabis")
    answer(st, "Move", where)
    roll(st, 1)                                         # respected
    if where == "Oasis":
        roll(st, 1)                                     # its Healer: nothing
    answer(st, "Spend a Cannabis: the Like-roll succeeds: yes")
    return st


@pytest.mark.parametrize("favour, stat, value", [
    ("Two Porters", "porters", 10),
    ("An Askari", "askaris", 7),
    ("Food", "food", 28),
    ("A feast", "discontent", 2),
])
def test_the_favours_of_a_village(favour, stat, value):
    """EX-GAP-14, EX-DIS-09 (designed): a Village that likes the
    expedition grants one favour: two Porters, an Askari, 8 Food, or a
    feast that lowers Discontent by 2 (from 4 here)."""
    st = liked_at("River Mouth", "River Bend", discontent=4)
    answer(st, favour)
    assert st.stat(stat, 0) == value


def test_a_village_can_give_a_guide_from_the_pool():
    """EX-GAP-14, EX-NEW-02: the favour may be a Guide, taken face up from
    the pool."""
    st = liked_at("River Mouth", "River Bend")
    in_pool = st.pile("pool").count("Guide")
    answer(st, "A Guide")
    assert "Guide" in sheet(st) and st.pile("pool").count("Guide") == in_pool - 1


@pytest.mark.parametrize("where, frm, canoes", [("River Mouth", "River Bend", True),
                                                ("Oasis", "Salt Pan", False),
                                                ("Coast Town", "Thorn Scrub", False)])
def test_a_village_gives_canoes_only_in_a_water_zone(where, frm, canoes):
    """EX-GAP-09, EX-GAP-14, EX-R-CANOES-04: River Mouth (Great River) can
    give Canoes; the Oasis and Coast Town, in dry zones, cannot."""
    st = solo(at=frm)
    give(st, 0, "Cannabis")
    answer(st, "Move", where)
    roll(st, 1)
    if where == "Oasis":
        roll(st, 1)                                     # the Healer
    if where == "Coast Town":
        roll(st, 6)                                     # the Missionary
    answer(st, "Spend a Cannabis: the Like-roll succeeds: yes")
    assert ("Canoes" in offered(st)) is canoes
    assert {"Two Porters", "An Askari", "Food", "A feast", "A Guide"} <= set(offered(st))


@pytest.mark.parametrize("bible, die, health", [(False, 4, 4), (False, 3, 3), (True, 3, 4)])
def test_the_oasis_healer_may_restore_health(bible, die, health):
    """EX-GAP-21, EX-R-BIBLE-01 (designed; higher is better): a respected
    expedition at the Oasis sees its Healer: a d6, +1 with a Bible; 4 or
    more recovers 1 Health."""
    st = solo(at="Salt Pan", health=3)
    if bible:
        give(st, 0, "Bible")
    go(st, "Oasis", 1, die)
    assert st.stat("health", 0) == health


@pytest.mark.parametrize("die, askaris, porters", [(2, 7, 9), (3, 6, 8)])
def test_the_coast_town_missionary_recruits_on_one_or_two(die, askaris, porters):
    """EX-GAP-22 (designed): a respected expedition at Coast Town meets its
    Missionary, who brings an Askari and a Porter on a d6 of 1 or 2."""
    st = solo(at="Thorn Scrub")
    go(st, "Coast Town", 1, die)
    assert (st.stat("askaris", 0), st.stat("porters", 0)) == (askaris, porters)


def test_a_bible_spent_makes_the_missionary_recruit_for_sure():
    """EX-GAP-22, EX-R-BIBLE-02: a Bible spent brings the recruits with no
    die; the Bible goes back to the pool, blank."""
    st = solo(at="Thorn Scrub")
    give(st, 0, "Bible")
    go(st, "Coast Town", 1)
    answer(st, "Spend a Bible: the Missionary's recruits come: yes")
    assert st.current_player == 0                        # no die: on to the liking
    assert (st.stat("askaris", 0), st.stat("porters", 0)) == (7, 9)
    assert "Bible" not in sheet(st) and "Bible" in st.pile("blank_pool")


def test_the_healer_and_the_missionary_are_where_the_map_puts_them():
    """EX-GAP-21, EX-GAP-22: one Healer (the Oasis) and one Missionary
    (Coast Town); River Mouth, a Village with neither, goes straight from
    the Respect-roll to the Gifts."""
    st = solo(at="River Bend")
    assert {n for n in SLOTS if field(st, n, "healer")} == {"Oasis"}
    assert {n for n in SLOTS if field(st, n, "mission")} == {"Coast Town"}
    go(st, "River Mouth", 1)
    assert st.current_player == 0 and number_choice(st) == [0, 1, 2, 3, 4]


# ================================================================ Kingdoms

def at_kingdom(kingdom="Hill Kingdom", held=(), **stats):
    """Entering a Kingdom (the Hill Kingdom from Salt Pan, the Lake Kingdom
    from West Shore) holding the Resources ``held``."""
    frm = "Salt Pan" if kingdom == "Hill Kingdom" else "West Shore"
    st = solo(at=frm, **stats)
    give(st, 0, *held)
    answer(st, "Move", kingdom)
    return st


@pytest.mark.parametrize("die, honoured", [(3, True), (4, False)])
def test_the_kingdom_rolls_a_d6_against_the_gifts_given(die, honoured):
    """EX-GAP-17, EX-GAP-28, EX-GAP-38 (designed): the player gives up to 5
    Gifts (given whatever happens) and rolls a d6; at or below the Gifts
    the King honours the expedition: 3 DP and the King's gift."""
    st = at_kingdom()
    assert number_choice(st) == [0, 1, 2, 3, 4, 5]
    answer(st, "Gifts for the King: 3")
    roll(st, die)
    assert st.stat("gifts", 0) == 7
    assert st.stat("points", 0) == (3 if honoured else 0)
    assert ("Two Askaris" in offered(st)) is honoured


def test_a_six_fails_at_a_kingdom_even_with_five_gifts():
    """EX-GAP-17, EX-R-RIFLE-03: a Kingdom roll of 6 fails with Gifts."""
    st = at_kingdom()
    answer(st, "Gifts for the King: 5")
    roll(st, 6)
    assert "Kingdom roll 6: the King is not pleased" in texts(st)
    assert st.stat("points", 0) == 0 and st.stat("gifts", 0) == 5


def test_a_rifle_counts_as_six_gifts_and_wins_even_on_a_six():
    """EX-GAP-17, EX-R-RIFLE-02/03: a Rifle given in place of the Gifts
    counts as 6 and even a 6 succeeds; no Gift is given."""
    st = at_kingdom(held=["Rifle"])
    answer(st, "Give a Rifle as the present (as 6 Gifts): yes")
    roll(st, 6)
    assert "Kingdom roll 6: the King honours the expedition" in texts(st)
    assert st.stat("gifts", 0) == 10 and st.stat("points", 0) == 3
    assert "Rifle" not in sheet(st) and "Rifle" in st.pile("blank_pool")


def test_no_gifts_no_kingdom_roll():
    """EX-GAP-17: giving nothing makes no Kingdom roll."""
    st = at_kingdom()
    answer(st, "Gifts for the King: 0")
    assert st.current_player == 0 and st.stat("points", 0) == 0


def test_a_kingdom_receives_an_expedition_once_per_game_turn():
    """EX-GAP-17 (designed): back at the Kingdom in the same Game Turn the
    expedition is not received again (no Gifts, no roll); in the next Game
    Turn it is."""
    st = at_kingdom()
    answer(st, "Gifts for the King: 1")
    roll(st, 2)                                          # not pleased
    go(st, "Salt Pan", QUIET)
    answer(st, "Move", "Hill Kingdom")
    assert st.current_player == 0 and st.stat("gifts", 0) == 9
    assert "the Kingdom has received the expedition already this Game Turn" in texts(st)
    camp(st)
    put(st, 0, at="Salt Pan")
    answer(st, "Move", "Hill Kingdom")
    assert number_choice(st) == [0, 1, 2, 3, 4, 5]


def test_a_kingdom_is_worth_dp_only_the_first_time_it_honours_the_expedition():
    """EX-GAP-17, EX-GAP-28 (designed): honoured a second time by the same
    Kingdom (a later Game Turn) the expedition scores no more DP but still
    has the King's gift; the other Kingdom is worth its 3 DP."""
    st = at_kingdom()
    answer(st, "Gifts for the King: 1")
    roll(st, 1)
    answer(st, "A feast")
    assert st.stat("points", 0) == 3
    camp(st)
    put(st, 0, at="Salt Pan")
    answer(st, "Move", "Hill Kingdom", "Gifts for the King: 1")
    roll(st, 1)
    assert st.stat("points", 0) == 3 and "Two Askaris" in offered(st)
    answer(st, "A feast")
    camp(st)
    put(st, 0, at="West Shore")
    answer(st, "Move", "Lake Kingdom", "Gifts for the King: 1")
    roll(st, 1)
    assert st.stat("points", 0) == 6
    assert st.stat("court_1", 0) == slot("Hill Kingdom")
    assert st.stat("court_2", 0) == slot("Lake Kingdom")


def test_one_kingdom_reception_per_game_turn_whichever_the_kingdom():
    """EX-GAP-17 (designed; the stat ``received``: "by a Kingdom, this Game
    Turn"): once a Kingdom has received the expedition, the other Kingdom
    does not receive it in the same Game Turn either."""
    st = at_kingdom()
    answer(st, "Gifts for the King: 1")
    roll(st, 1)
    answer(st, "A feast")
    go(st, "West Shore", QUIET)
    answer(st, "Move", "Lake Kingdom")
    assert st.current_player == 0 and st.stat("gifts", 0) == 9
    assert st.stat("points", 0) == 3


def test_a_bible_adds_a_dp_at_a_kingdom():
    """EX-GAP-17, EX-R-BIBLE-03: with a Bible held, a Kingdom is worth 4."""
    st = at_kingdom(held=["Bible"])
    answer(st, "Gifts for the King: 1")
    roll(st, 1)
    assert st.stat("points", 0) == 4 and "Bible" in sheet(st)


@pytest.mark.parametrize("kingdom, gifts", [
    ("Hill Kingdom", ["A Guide", "Two Askaris", "A feast"]),
    ("Lake Kingdom", ["A Guide", "Canoes", "Two Askaris", "A feast"]),
])
def test_the_kings_gifts(kingdom, gifts):
    """EX-GAP-17, EX-NEW-03, EX-R-CANOES-04 (designed): the King gives a
    Guide, Canoes (at the Lake Kingdom only, in a Water Zone), two Askaris
    or a feast."""
    st = at_kingdom(kingdom)
    answer(st, "Gifts for the King: 1")
    roll(st, 1)
    assert offered(st) == gifts


@pytest.mark.parametrize("gift, stat, value", [("Two Askaris", "askaris", 8),
                                               ("A feast", "discontent", 1)])
def test_what_the_kings_gifts_do(gift, stat, value):
    """EX-GAP-17: two Askaris (6 becomes 8), or a feast (Discontent 3
    becomes 1)."""
    st = at_kingdom(discontent=3)
    answer(st, "Gifts for the King: 1")
    roll(st, 1)
    answer(st, gift)
    assert st.stat(stat, 0) == value


def test_the_king_can_give_canoes_at_the_lake():
    """EX-GAP-17, EX-NEW-03: the Lake Kingdom's Canoes come face up from
    the pool onto the sheet."""
    st = at_kingdom("Lake Kingdom")
    in_pool = st.pile("pool").count("Canoes")
    answer(st, "Gifts for the King: 1")
    roll(st, 1)
    answer(st, "Canoes")
    assert "Canoes" in sheet(st) and st.pile("pool").count("Canoes") == in_pool - 1


# ================================================================ discoveries

@pytest.mark.parametrize("where, kind, dp, cost", [
    ("Coast Town", "culture", 1, 1),
    ("Mangrove Creek", "marsh", 2, 1),
    ("Thorn Scrub", "flora", 1, 1),
    ("Grassland", "scenery", 2, 1),
    ("Salt Pan", "mineral", 3, 2),
    ("Lookout Rock", "mountain", 3, 2),
    ("Granite Scarp", "mineral", 4, 3),
    ("River Bend", "waterfall", 3, 1),
    ("West Shore", "lake", 3, 1),
    ("Warrior Hills", "culture", 3, 2),
    ("Lost City", "lost_city", 5, 3),
    ("Moon Foothills", "special", 4, 2),
])
def test_exploring_a_slot_discovers_its_site_for_its_dp(where, kind, dp, cost):
    """EX-GAP-25, EX-GAP-26, EX-GAP-27, EX-GAP-28, EX-GAP-11 (designed):
    exploring a slot costs the Time its terrain and site ask (jungle and
    desert 2, the Lost City and Granite Scarp 3, open country 1) and
    discovers its site, worth the slot's DP (the Lost City 5, a Special
    Discovery 4, …), scored at once."""
    st = fresh(solo(), where)
    answer(st, "Explore")
    assert st.stat("points", 0) == dp and st.stat("time", 0) == 10 - cost
    assert f"discovers a {kind}: {dp} DP, +0 from the Resources" in texts(st)
    assert field(st, where, "found_by") == 0


def test_every_discovery_kind_the_sheet_names_is_on_the_map():
    """EX-GAP-26, EX-GAP-25, EX-GAP-27, EX-R-ALTIMETER-01: the sheet names
    Culture, Flora, Mineral, Scenery, Marsh, Waterfall, Lake and Mountain
    discoveries, the Lost City and Special Discoveries; each is found
    somewhere on the designed map (else its Resource bonus could never be
    earned)."""
    st = solo()
    sites = {field(st, n, "site") for n in SLOTS}
    for kind in ("culture", "flora", "mineral", "scenery", "marsh", "waterfall", "lake",
                 "mountain", "lost_city", "special"):
        assert kind in sites, f"no {kind} discovery on the map"


def test_only_the_first_explorer_discovers_a_site():
    """EX-GAP-28 (designed): the first explorer to explore a slot takes its
    discovery; for the next one on that slot there is nothing to explore."""
    st = new_game(2, first=0)
    clear_sheet(st, 0)
    clear_sheet(st, 1)
    go(st, "Thorn Scrub", QUIET)
    go(st, "Thorn Scrub", QUIET)
    answer(st, "Explore")
    assert st.stat("points", 0) == 1 and field(st, "Thorn Scrub", "found_by") == 0
    assert st.current_player == 1 and "Explore" not in offered(st)


def test_exploring_needs_the_time_it_costs():
    """EX-GAP-11: Salt Pan (desert) costs 2 Time to explore: not offered
    with 1 Time, offered with 2."""
    st = fresh(solo(), "Salt Pan", time=1)
    assert "Explore" not in offered(st)
    put(st, 0, time=2)
    assert "Explore" in offered(st)


@pytest.mark.parametrize("where, tool, kind", [("Deep Forest", "Machete", "flora"),
                                               ("Salt Pan", "Canteen", "mineral")])
def test_machete_and_canteen_make_exploring_free(where, tool, kind):
    """EX-GAP-11, EX-R-MACHETE-01, EX-R-CANTEEN-01: exploring Jungle costs
    no Time with a Machete, Desert none with a Canteen, even with 1 Time
    left where it would cost 2."""
    st = fresh(solo(), where, time=1)
    give(st, 0, tool)
    answer(st, "Explore")
    assert st.stat("time", 0) == 1 and st.stat("points", 0) > 0
    assert any(t.startswith(f"discovers a {kind}") for t in texts(st))


# ---------------------------------------------------------------- Sources

def test_the_source_slots_and_the_source_deck():
    """EX-GAP-24 (designed): four slots hold a Source to be drawn, and the
    deck holds three each of Lake, Mountain and Generic Sources and of Dry
    Channels."""
    st = solo()
    assert {n for n in SLOTS if field(st, n, "site") == "source"} == \
        {"Upper River", "Island", "Reed Maze", "Snowfields"}
    deck = st.pile("sources")
    assert sorted(set(deck)) == ["Dry Channel", "Generic Source", "Lake Source",
                                 "Mountain Source"]
    assert all(deck.count(c) == 3 for c in set(deck))


@pytest.mark.parametrize("card, dp", [("Lake Source", 4), ("Mountain Source", 4),
                                      ("Generic Source", 2), ("Dry Channel", 0)])
def test_exploring_a_source_slot_draws_a_source(card, dp):
    """EX-GAP-24 (designed): exploring a Source slot draws a Source at
    random from the ``sources`` deck; it is kept and scored (Lake and
    Mountain 4 DP, Generic 2, a Dry Channel nothing)."""
    st = fresh(solo(), "Upper River")
    answer(st, "Explore")
    assert sorted(offered(st)) == ["draw Dry Channel", "draw Generic Source",
                                   "draw Lake Source", "draw Mountain Source"]
    draw(st, card)
    assert st.stat("points", 0) == dp
    assert st.pile("found_sources", 0) == [card] and st.pile("drawn_source") == []
    assert len(st.pile("sources")) == 11
    if dp == 0:
        assert "the channel runs dry: no Source here" in texts(st)


# ================================================================ the end

def test_the_game_ends_after_the_last_game_turn():
    """EX-GAP-39, EX-GAP-01 (designed): the game lasts ``turns`` Game
    Turns (3 here): it is still on in the third and over when it ends."""
    st = new_game(1, params={"turns": 3})
    clear_sheet(st, 0)
    camp(st)
    camp(st)
    assert st.round == 3 and not st.is_over
    camp(st)
    assert st.is_over and st.result().ending == "the last Game Turn is over"


def test_the_game_lasts_eight_game_turns_by_default():
    """EX-GAP-39: the ``turns`` parameter is 8 unless set."""
    st = solo()
    for _ in range(7):
        camp(put(st, 0, food=20))
    assert st.round == 8 and not st.is_over
    camp(put(st, 0, food=20))
    assert st.is_over and st.result().ending == "the last Game Turn is over"


def test_finding_the_source_ends_the_game_with_that_game_turn():
    """EX-GAP-39, EX-GAP-27 (designed): exploring The Source (a Special
    Discovery worth 6) ends the game, not at once but when that Game Turn
    is over: the other explorer still plays out their Time."""
    st = new_game(2, first=0)
    clear_sheet(st, 0)
    clear_sheet(st, 1)
    put(st, 0, at="Reed Maze")
    go(st, "The Source", QUIET)
    go(st, "Thorn Scrub", QUIET)
    answer(st, "Explore")
    assert st.stat("points", 0) == 6 and st.stat("source_found")
    assert not st.is_over and st.current_player == 1
    go(st, "Grassland", QUIET)
    assert not st.is_over and st.current_player == 0
    camp(st)
    assert not st.is_over and st.current_player == 1
    camp(st)
    assert st.is_over and st.result().ending == "the Source is found"
    assert st.result().winners == (0,)


def test_a_dead_explorer_takes_no_more_player_turns():
    """EX-GAP-34 (designed): an explorer whose Health reaches 0 dies; the
    journey is over for them (no more Player Turns, no Time, no meals),
    and the others play on."""
    st = new_game(2, first=1)
    clear_sheet(st, 0)
    clear_sheet(st, 1)
    put(st, 0, at="Thorn Scrub", health=1)
    go(st, "Thorn Scrub", QUIET)                   # P1
    go(st, "Red Sands", 1)                         # P0: Thirst
    assert st.stat("fate", 0) == "dead" and "the explorer dies" in texts(st)
    assert not st.is_over and st.current_player == 1
    go(st, "Grassland", QUIET)
    assert st.current_player == 1
    camp(st)
    assert st.round == 2 and st.current_player == 1
    assert turns_taken(st, 2) == [1]
    assert st.stat("food", 0) == 20 and st.stat("time", 0) == 8     # P0 neither eats nor rests
    assert st.stat("time", 1) == 10


def test_the_game_ends_at_once_when_every_explorer_is_dead_or_insane():
    """EX-GAP-39, EX-GAP-34 (designed): when the last explorer still
    exploring dies or goes insane the game ends at once, and nobody wins
    (not even with the most DP)."""
    st = new_game(2, first=0)
    clear_sheet(st, 0)
    clear_sheet(st, 1)
    put(st, 0, at="Thorn Scrub", health=1, points=9)
    put(st, 1, at="Thorn Scrub", health=1, sanity=1)
    go(st, "Red Sands", 1)                         # P0: Thirst, dead
    go(st, "Red Sands", 5, 1)                      # P1: Mirage, a Sanity-roll of 1
    assert st.stat("fate", 1) == "insane"
    assert st.is_over and st.result().ending == "every explorer is dead or insane"
    assert st.result().winners == ()


def short_game(points, fates=()):
    """A 2-player game of 3 Game Turns, points set, the seats named in
    ``fates`` ("dead" or "insane") killed by Thirst or driven mad by a
    Mirage in Game Turn 1, played out by making camp."""
    st = new_game(2, first=0, params={"turns": 3})
    fates = dict(fates)
    for p in range(2):
        clear_sheet(st, p)
        put(st, p, points=points[p], at="Thorn Scrub")
    for p in range(2):
        if fates.get(p) == "dead":
            put(st, p, health=1)
            go(st, "Red Sands", 1)
        elif fates.get(p) == "insane":
            put(st, p, health=1, sanity=1)
            go(st, "Red Sands", 5, 1)
        else:
            camp(st)
    assert [st.stat("fate", p) for p in fates] == list(fates.values())
    while not st.is_over:
        camp(st)
    return st


@pytest.mark.parametrize("points, fates, winners", [
    ((5, 7), {}, (1,)),                  # the most DP wins
    ((7, 7), {}, (0, 1)),                # a tie shares the win
    ((3, 9), {1: "dead"}, (0,)),         # the dead cannot win, whatever their DP
    ((9, 3), {0: "insane"}, (1,)),       # nor the insane
])
def test_the_most_dp_among_the_living_wins(points, fates, winners):
    """EX-GAP-39, EX-GAP-28, EX-GAP-34 (designed): the explorer with the
    most DP among those still exploring wins; a tie shares the win; a dead
    or insane explorer's DP count for nothing; with two or more players no
    target is needed."""
    st = short_game(points, fates)
    assert st.result().ending == "the last Game Turn is over"
    assert st.result().winners == winners


@pytest.mark.parametrize("points, params, winners", [
    (39, {}, ()),
    (40, {}, (0,)),
    (10, {"solo_target": 10}, (0,)),
    (9, {"solo_target": 10}, ()),
])
def test_a_solo_explorer_wins_only_at_the_solo_target(points, params, winners):
    """EX-GAP-39 (designed): alone, the explorer wins only with at least
    ``solo_target`` DP (40 by default)."""
    st = new_game(1, params=dict(params, turns=3))
    clear_sheet(st, 0)
    put(st, 0, points=points)
    while not st.is_over:
        camp(st)
    assert st.result().winners == winners


# ================================================================ the rest of the gaps

def test_credits_buy_the_pools_resources_one_each_before_the_first_game_turn():
    """EX-GAP-35 (Reading EX-EQP-06), EX-GAP-01: every Credit buys one
    Resource chit of the pool; the offer is the pool's eighteen kinds; all
    20 are bought before the first Game Turn's first Player Turn."""
    st = GAME.new_game(players=1, seed=1, chance="explicit")
    assert sorted(offered(st)) == sorted(set(st.pile("pool")))
    assert len(set(st.pile("pool"))) == 18
    st = new_game(2)
    kinds = [e.kind if e.kind == "turn" else e.text[:4] for e in st.log
             if e.kind == "turn" or e.text.startswith("Buy:")]
    assert kinds == ["Buy:"] * 40 + ["turn"]
    assert [st.stat("credits", p) for p in range(2)] == [0, 0]
    assert [len(st.pile("sheet", p)) for p in range(2)] == [20, 20]


@pytest.mark.parametrize("porters, capacity", [
    (0, 0), (1, 0), (2, 0), (3, 10), (4, 10), (5, 20), (6, 20), (7, 30), (8, 40),
    (9, 50), (10, 50)])
def test_the_porter_capacity_printed_for_each_count(porters, capacity):
    """EX-GAP-36, EX-POR-03 (designed): the Porter Capacity beside each
    count of Porters: Fish bringing the Food's tens to the capacity are
    kept; one ten more must be discarded."""
    st = solo(at="Grassland", porters=porters, gifts=0, food=capacity + 5)
    go(st, "River Bend", 4)                        # Fish: +4 Food, tens = capacity
    assert st.stat("food", 0) == capacity + 9 and st.current_player == 0
    st = solo(at="Grassland", porters=porters, gifts=0, food=capacity + 6)
    go(st, "River Bend", 4)                        # one ten too many
    assert offered(st) == ["Food"]


@pytest.mark.parametrize("players", [1, 4])
def test_one_to_four_players(players):
    """EX-GAP-37 (designed): the journey is for 1 to 4 players."""
    st = new_game(players)
    assert st.players == players and st.current_player == 0


def test_five_players_are_refused():
    """EX-GAP-37: a fifth player is refused."""
    with pytest.raises(ValueError, match="1 to 4 players"):
        GAME.new_game(players=5, seed=1)
