"""Scenario tests for Racing to the North Pole, part A: components, stats,
the Stat Table, setup, the preset expeditions, turn order, the Event phase
and tests & morale (NP-CMP, NP-STA, NP-TAB, NP-SET, NP-EXP, NP-TRN, NP-EVT,
NP-TST in northpole.checklist.md).

Every die and card is forced (explicit chance mode).  Unless a test says
otherwise the game is the helpers' PLAIN pair: seat 0 Roald Amundsen (Men 6,
Dogs 7, Food 12, Gear 6, Skill 5, Will 5, Ship 2: start space 4) and seat 1
Ernest Shackleton (Men 6, Dogs 7, Will 6, Skill 6, Ship 2), seat 0 first.
Both have Dogs > Men, so every Move Total they make gets +1 (NP-STA-03).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulelang import CHANCE

from northpole_helpers import GAME, PLAIN, draw, play, start, stats
from helpers import labels

NINE = ("men", "dogs", "food", "gear", "skill", "will", "ship", "time", "hoax")
BASE = dict(men=5, dogs=7, food=10, gear=5, skill=5, will=5, ship=0, time=0, hoax=0)
PRESETS = ("Robert Peary", "Frederick Cook", "Fridtjof Nansen", "Roald Amundsen",
           "Robert Falcon Scott", "Ernest Shackleton")

# An event with no effect: Difficult Terrain (roll 2) and a passed Skill test
# (roll 1).
QUIET = ("roll 2", "roll 1")
# A Blizzard: no test, no Travel Phase.
BLIZZARD = ("roll 1",)
# Five cards worth 3 (Trek, Trek, Ice, Snow, Snow): one Dogs card at most, so
# no Dogs bonus and no Trek bonus.
THREE = ("Trek", "Trek", "Ice", "Snow", "Snow")


# ------------------------------------------------------------------ helpers

def nine(state, seat):
    """The nine expedition stats of a seat."""
    s = stats(state, seat)
    return {k: s[k] for k in NINE}


def expected(**changes):
    """The base stats with these stats raised (or set)."""
    out = dict(BASE)
    for k, v in changes.items():
        out[k] = BASE[k] + v
    return out


def set_stats(state, seat, **values):
    for name, value in values.items():
        state.set_stat(name, value, seat)


def travel(state, cards, discard="discard nothing"):
    """A Travel Phase: draw these five cards and keep them all."""
    draw(state, *cards)
    play(state, discard)
    return state


def random_game(*steps, other="Roald Amundsen"):
    """Seat 0 makes a random expedition, seat 1 takes a preset.  Each step is
    a Stat Table roll (int) or a Choice answer (str).  Seat 0 wins the
    roll-off."""
    state = GAME.new_game(players=2, chance="explicit",
                          options={"expedition": ["random", other]})
    for step in steps:
        state.apply(f"roll {step}" if isinstance(step, int) else step)
    play(state, "roll 10", "roll 1")
    return state


def turn_log(state, seat):
    """Log entries of the seat's most recent turn."""
    entries = state.log
    for i in range(len(entries) - 1, -1, -1):
        if entries[i].kind == "turn" and entries[i].value == seat:
            out = []
            for e in entries[i + 1:]:
                if e.kind == "turn":
                    break
                out.append(e)
            return out
    return []


# ------------------------------------------------------------------ Components & board

def test_cmp_01_two_to_four_players():
    """NP-CMP-01: games of 2, 3 and 4 players start and every seat gets a
    turn, while 1 or 5 players are refused (reading: exactly 2 to 4)."""
    for n in (2, 3, 4):
        state = GAME.new_game(players=n, chance="explicit",
                              options={"expedition": ["Roald Amundsen"] * n})
        play(state, "roll 10", *["roll 1"] * (n - 1))
        seen = []
        for _ in range(n):
            seen.append(state.turn_player)
            play(state, *BLIZZARD)
        assert seen == list(range(n))
        assert len(state.view(None)["players"]) == n
    for n in (1, 5):
        with pytest.raises(ValueError):
            GAME.new_game(players=n, chance="explicit")


def test_cmp_02_pole_is_29_spaces_past_start():
    """NP-CMP-02: a Ship 0 expedition starts on space 0, reaching space 29
    is reaching the Pole, and space 28 is not the Pole."""
    # Seat 0: random expedition with Gear +5 (Ship 0, Men 5, Dogs 7).
    state = random_game(4, 4, 4, 4, 4)
    assert stats(state, 0)["start"] == 0 and stats(state, 0)["position"] == 0
    state.set_stat("position", 22, 0)
    play(state, *QUIET)
    travel(state, ["Trek"] * 5)          # 5 + Trek bonus 1 + Dogs>Men 1 = 7
    assert stats(state, 0)["position"] == 29
    assert stats(state, 0)["reached_pole"] is True
    # Seat 1 (Amundsen) moves 7 from 21 to 28: not the Pole.
    state.set_stat("position", 21, 1)
    play(state, *QUIET)
    travel(state, ["Trek"] * 5)
    assert stats(state, 1)["position"] == 28
    assert stats(state, 1)["reached_pole"] is False
    assert stats(state, 1)["heading_back"] is False


def test_cmp_03_one_shared_deck_of_45_cards():
    """NP-CMP-03: all players draw from one shared deck holding the 45 cards
    of the deck table (reading), so the first draw has Trek at 10/45 and the
    second player's draws come from what the first left."""
    state = start()
    assert state.view(None)["piles"]["travel"] == {"size": 45}
    play(state, *QUIET)
    probs = {m.label: m.probability for m in state.legal_moves()}
    assert probs == {
        "draw Trek": Fraction(10, 45), "draw Dogs": Fraction(10, 45),
        "draw Ice": Fraction(5, 45), "draw Snow": Fraction(5, 45),
        "draw Hunting": Fraction(5, 45), "draw Cracked Ice": Fraction(5, 45),
        "draw Open Water": Fraction(5, 45),
    }
    travel(state, ["Trek"] * 5)
    assert state.turn_player == 1
    play(state, *QUIET)
    probs = {m.label: m.probability for m in state.legal_moves()}
    assert probs["draw Trek"] == Fraction(5, 40)
    assert probs["draw Dogs"] == Fraction(10, 40)
    assert len(state.pile("travel")) == 40


def test_cmp_04_empty_deck_reshuffles_discards():
    """NP-CMP-04: when the deck runs out mid-draw, the discard pile becomes
    the new deck and the remaining cards are drawn from it."""
    state = start()
    state.set_pile("travel", ["Trek", "Trek"])
    state.set_pile("discard", ["Ice", "Ice", "Snow", "Snow"])
    play(state, *QUIET)
    # Every draw is a chance node, even from a deck of one kind of card.
    assert labels(state) == ["draw Trek"]
    draw(state, "Trek", "Trek")
    # The deck is now empty: only discarded kinds can come next.
    assert state.current_player == CHANCE
    assert sorted(state.pile("hand", 0)) == ["Trek", "Trek"]
    assert labels(state) == ["draw Ice", "draw Snow"]
    assert state.pile("discard") == []
    draw(state, "Ice", "Snow", "Ice")
    assert sorted(state.pile("hand", 0)) == ["Ice", "Ice", "Snow", "Trek", "Trek"]
    assert state.pile("travel") == ["Snow"]
    assert any(e.kind == "shuffle" for e in state.log)


# ------------------------------------------------------------------ Stats

def test_sta_01_nine_stats():
    """NP-STA-01: every expedition has the nine stats Men, Dogs, Food, Gear,
    Skill, Will, Ship, Time, Hoax, and a Stat Table Choice offers exactly
    those nine."""
    state = GAME.new_game(players=2, chance="explicit",
                          options={"expedition": ["random", "Roald Amundsen"]})
    play(state, "roll 10")
    assert labels(state) == ["Men", "Dogs", "Food", "Gear", "Skill", "Will",
                             "Ship", "Time", "Hoax"]
    play(state, "Men", "roll 1", "roll 1", "roll 1", "roll 1", "roll 10", "roll 1")
    for seat in (0, 1):
        s = stats(state, seat)
        assert all(isinstance(s[k], int) and not isinstance(s[k], bool) for k in NINE)
    assert nine(state, 0) == expected(men=5)


def test_sta_02_zero_men_perishes_at_once():
    """NP-STA-02: a casualty that takes the last Man ends that player's game
    at once (no Morale Check, Travel or End Phase, no later turns); VP it had
    earned still count and its pawn is off the board (reading)."""
    state = start()
    set_stats(state, 0, men=1, reached_pole=True, position=10)
    state.set_stat("first_to_pole", 0)
    # Crevasse, Skill test failed, casualty roll 1: lose a man.
    play(state, "roll 4", "roll 9", "roll 1")
    s = stats(state, 0)
    assert s["men"] == 0
    assert s["status"] == "perished"
    assert s["food"] == 12                      # no End Phase
    assert s["failed_morale"] is False          # no Morale Check rolled
    assert state.pile("hand", 0) == []
    assert len(state.pile("travel")) == 45      # no Travel Phase
    assert state.turn_player == 1 and state.current_player == CHANCE
    assert "The expedition has perished." in [e.text for e in state.log]
    # Reading: the pawn has left the board, so landing on its space (6 -> 10)
    # does not bump it.
    state.set_stat("position", 6, 1)
    play(state, *QUIET)
    travel(state, THREE)
    assert stats(state, 1)["position"] == 10 and stats(state, 0)["position"] == 10
    assert state.turn_player == 1                # seat 0 takes no more turns
    play(state, *BLIZZARD)
    assert state.turn_player == 1
    # Pole 1 + first to Pole 2 + never failed a Morale Check 1.
    assert state.result().scores[0] == 4


def test_sta_03_more_dogs_than_men_plus_one():
    """NP-STA-03: Dogs greater than Men adds +1 to the Move Total, and Dogs
    equal to Men adds nothing."""
    state = start()
    play(state, *QUIET)
    travel(state, THREE)                         # Dogs 7 > Men 6
    assert stats(state, 0)["position"] == 4 + 3 + 1
    state.set_stat("dogs", 6, 1)                 # Dogs 6 == Men 6
    play(state, *QUIET)
    travel(state, THREE)
    assert stats(state, 1)["position"] == 4 + 3


def test_sta_04_fewer_dogs_than_men_minus_one():
    """NP-STA-04: Dogs at least 1 but below Men takes 1 from the Move
    Total."""
    state = start()
    state.set_stat("dogs", 1, 0)
    play(state, *QUIET)
    travel(state, THREE)
    assert stats(state, 0)["position"] == 4 + 3 - 1
    state.set_stat("dogs", 5, 1)
    play(state, *QUIET)
    travel(state, ["Trek", "Trek", "Ice", "Ice", "Snow"])   # 4
    assert stats(state, 1)["position"] == 4 + 4 - 1


def test_sta_05_no_dogs_minus_two_not_three():
    """NP-STA-05: with 0 Dogs the Move Total gets -2, not -1 and -2 stacked
    (reading)."""
    state = start()
    state.set_stat("dogs", 0, 0)
    play(state, *QUIET)
    travel(state, ["Trek", "Trek", "Ice", "Ice", "Snow"])   # 4
    assert stats(state, 0)["position"] == 4 + 4 - 2


def test_sta_06_stats_never_below_zero():
    """NP-STA-06: a loss larger than a stat leaves it at 0 (Lost Supplies
    with Gear 0 leaves Gear 0)."""
    state = start()
    state.set_stat("gear", 0, 0)
    # Lost Supplies, Will test (5) failed with 6, Morale Check passed.
    play(state, "roll 6", "roll 6", "roll 1")
    assert stats(state, 0)["gear"] == 0
    assert stats(state, 0)["food"] == 11
    # And a casualty "lose two dogs" with 1 Dog leaves 0 Dogs, not -1.
    travel(state, THREE)
    state.set_stat("dogs", 1, 1)
    play(state, "roll 5", "roll 9", "roll 4", "roll 1")   # Sub-Zero, fail, casualty 4
    assert stats(state, 1)["dogs"] == 0
    assert stats(state, 1)["men"] == 6


# ------------------------------------------------------------------ Stat table

def _tab(roll, filler):
    """A random expedition from one roll of ``roll`` and four of ``filler``."""
    return nine(random_game(roll, filler, filler, filler, filler), 0)


def test_tab_01_men():
    """NP-TAB-01: a Stat Table roll of 1 raises Men from 5 to 6."""
    assert _tab(1, 4) == expected(men=1, gear=4)


def test_tab_02_dogs():
    """NP-TAB-02: a Stat Table roll of 2 raises Dogs from 7 to 8."""
    assert _tab(2, 4) == expected(dogs=1, gear=4)


def test_tab_03_food_plus_two():
    """NP-TAB-03: a Stat Table roll of 3 raises Food by 2, from 10 to 12."""
    assert _tab(3, 4) == expected(food=2, gear=4)


def test_tab_04_gear():
    """NP-TAB-04: a Stat Table roll of 4 raises Gear from 5 to 6."""
    assert _tab(4, 1) == expected(gear=1, men=4)


def test_tab_05_skill():
    """NP-TAB-05: a Stat Table roll of 5 raises Skill from 5 to 6."""
    assert _tab(5, 4) == expected(skill=1, gear=4)


def test_tab_06_will():
    """NP-TAB-06: a Stat Table roll of 6 raises Will from 5 to 6."""
    assert _tab(6, 4) == expected(will=1, gear=4)


def test_tab_07_base_row_is_ship():
    """NP-TAB-07: a Stat Table roll of 7 (the row printed "Base") raises Ship
    from 0 to 1, which puts the pawn 2 spaces past Start (reading)."""
    state = random_game(7, 4, 4, 4, 4)
    assert nine(state, 0) == expected(ship=1, gear=4)
    assert stats(state, 0)["start"] == 2 and stats(state, 0)["position"] == 2


def test_tab_08_time():
    """NP-TAB-08: a Stat Table roll of 8 raises Time from 0 to 1."""
    assert _tab(8, 4) == expected(time=1, gear=4)


def test_tab_09_hoax():
    """NP-TAB-09: a Stat Table roll of 9 raises Hoax from 0 to 1."""
    assert _tab(9, 4) == expected(hoax=1, gear=4)


def test_tab_10_choice():
    """NP-TAB-10: a roll of 10 lets the rolling player pick any of the nine
    stats; a picked Food gains 2 and Ship may be picked (reading)."""
    state = GAME.new_game(players=2, chance="explicit",
                          options={"expedition": ["random", "Roald Amundsen"]})
    play(state, "roll 10")
    assert state.current_player == 0
    assert labels(state) == ["Men", "Dogs", "Food", "Gear", "Skill", "Will",
                             "Ship", "Time", "Hoax"]
    play(state, "Food", "roll 10", "Ship", "roll 2", "roll 2", "roll 2")
    play(state, "roll 10", "roll 1")
    assert nine(state, 0) == expected(food=2, ship=1, dogs=3)
    assert stats(state, 0)["start"] == 2


# ------------------------------------------------------------------ Setup

def test_set_01_preset_or_random():
    """NP-SET-01: each player in turn chooses one of the six presets or the
    random method, and gets that expedition."""
    state = GAME.new_game(players=2, chance="explicit")
    assert state.current_player == 0
    assert labels(state) == list(PRESETS) + ["random"]
    play(state, "Fridtjof Nansen")
    assert state.current_player == 1
    assert labels(state) == list(PRESETS) + ["random"]
    play(state, "random")
    assert state.current_player == CHANCE
    play(state, "roll 6", "roll 6", "roll 6", "roll 6", "roll 6")
    play(state, "roll 10", "roll 1")
    assert nine(state, 0) == expected(ship=1, dogs=2, time=2)
    assert nine(state, 1) == expected(will=5)


def test_set_02_random_is_base_plus_five_rolls():
    """NP-SET-02: the random method starts at base and applies exactly five
    Stat Table rolls; the sixth roll already belongs to the next player."""
    state = GAME.new_game(players=2, chance="explicit",
                          options={"expedition": ["random", "random"]})
    play(state, "roll 1", "roll 2", "roll 3", "roll 4", "roll 5")
    play(state, "roll 6", "roll 6", "roll 6", "roll 6", "roll 6")
    play(state, "roll 10", "roll 1")            # the roll-off follows
    assert state.turn_player == 0
    assert nine(state, 0) == expected(men=1, dogs=1, food=2, gear=1, skill=1)
    assert nine(state, 1) == expected(will=5)


def test_set_03_repeated_rolls_stack():
    """NP-SET-03: a stat rolled twice rises twice (Skill 5 becomes 7), with
    no cap at base +1 (reading)."""
    assert nine(random_game(5, 5, 1, 1, 1), 0) == expected(skill=2, men=3)


def test_set_04_preset_is_base_plus_modifiers():
    """NP-SET-04: a preset chosen at setup has its listed modifiers on top of
    the base stats and every other stat at base."""
    state = GAME.new_game(players=2, chance="explicit")
    play(state, "Robert Falcon Scott", "Ernest Shackleton", "roll 10", "roll 1")
    assert nine(state, 0) == expected(time=1, skill=1, will=3)
    assert nine(state, 1) == expected(ship=2, will=1, men=1, skill=1)


def test_set_05_highest_roll_goes_first_ties_reroll():
    """NP-SET-05: each player rolls 1d10 and the highest goes first; only
    the players tied for highest roll again (reading)."""
    state = GAME.new_game(players=3, chance="explicit",
                          options={"expedition": ["Roald Amundsen"] * 3})
    play(state, "roll 7", "roll 9", "roll 9")
    assert state.current_player == CHANCE and state.turn_player is None
    play(state, "roll 3", "roll 8")
    assert state.turn_player == 2
    rolls = [e.text for e in state.log if e.kind == "roll" and "roll-off" in e.text]
    assert rolls == ["P0 rolls 7 for the roll-off", "P1 rolls 9 for the roll-off",
                     "P2 rolls 9 for the roll-off", "P1 rolls 3 for the roll-off",
                     "P2 rolls 8 for the roll-off"]
    # A plain highest roll: seat 1 wins with 6 against 5 and 2.
    state = GAME.new_game(players=3, chance="explicit",
                          options={"expedition": ["Roald Amundsen"] * 3})
    play(state, "roll 5", "roll 6", "roll 2")
    assert state.turn_player == 1


# ------------------------------------------------------------------ Presets

def _preset(name):
    state = start((name, "Roald Amundsen"))
    return state


def test_exp_01_peary():
    """NP-EXP-01: Robert Peary has Men 6, Dogs 7, Food 10, Gear 5, Skill 5,
    Will 6, Ship 0, Time 1, Hoax 2."""
    state = _preset("Robert Peary")
    assert nine(state, 0) == dict(men=6, dogs=7, food=10, gear=5, skill=5, will=6,
                                  ship=0, time=1, hoax=2)
    assert stats(state, 0)["start"] == 0


def test_exp_02_cook():
    """NP-EXP-02: Frederick Cook has Men 5, Dogs 7, Food 10, Gear 6, Skill 6,
    Will 6, Ship 0, Time 1, Hoax 1."""
    state = _preset("Frederick Cook")
    assert nine(state, 0) == dict(men=5, dogs=7, food=10, gear=6, skill=6, will=6,
                                  ship=0, time=1, hoax=1)
    assert stats(state, 0)["start"] == 0


def test_exp_03_nansen():
    """NP-EXP-03: Fridtjof Nansen has Men 5, Dogs 9, Food 10, Gear 5, Skill 5,
    Will 5, Ship 1, Time 2, Hoax 0, and starts on space 2."""
    state = _preset("Fridtjof Nansen")
    assert nine(state, 0) == dict(men=5, dogs=9, food=10, gear=5, skill=5, will=5,
                                  ship=1, time=2, hoax=0)
    assert stats(state, 0)["start"] == 2 and stats(state, 0)["position"] == 2


def test_exp_04_amundsen():
    """NP-EXP-04: Roald Amundsen has Men 6, Dogs 7, Food 12, Gear 6, Skill 5,
    Will 5, Ship 2, Time 0, Hoax 0, and starts on space 4."""
    state = start(("Ernest Shackleton", "Roald Amundsen"))
    assert nine(state, 1) == dict(men=6, dogs=7, food=12, gear=6, skill=5, will=5,
                                  ship=2, time=0, hoax=0)
    assert stats(state, 1)["start"] == 4 and stats(state, 1)["position"] == 4


def test_exp_05_scott():
    """NP-EXP-05: Robert Falcon Scott has Men 5, Dogs 7, Food 10, Gear 5,
    Skill 6, Will 8, Ship 0, Time 1, Hoax 0."""
    state = _preset("Robert Falcon Scott")
    assert nine(state, 0) == dict(men=5, dogs=7, food=10, gear=5, skill=6, will=8,
                                  ship=0, time=1, hoax=0)


def test_exp_06_shackleton():
    """NP-EXP-06: Ernest Shackleton has Men 6, Dogs 7, Food 10, Gear 5,
    Skill 6, Will 6, Ship 2, Time 0, Hoax 0, and starts on space 4."""
    state = _preset("Ernest Shackleton")
    assert nine(state, 0) == dict(men=6, dogs=7, food=10, gear=5, skill=6, will=6,
                                  ship=2, time=0, hoax=0)
    assert stats(state, 0)["start"] == 4


# ------------------------------------------------------------------ Turn order

def test_trn_01_event_travel_end():
    """NP-TRN-01: a turn runs the Event, Travel and End phases in that order:
    the event roll comes first, then the cards, and the Food is eaten after
    the cards (a Hunting card's Food is counted before the End Phase)."""
    state = start()
    assert labels(state)[0] == "roll 1"          # Event roll first
    play(state, *QUIET)
    assert labels(state)[0].startswith("draw ")  # then Travel
    assert stats(state, 0)["food"] == 12
    travel(state, ["Hunting", "Trek", "Trek", "Ice", "Snow"])
    # +1 Food from Hunting in Travel, then -1 in End.
    assert stats(state, 0)["food"] == 12
    phases = [e.value for e in turn_log(state, 0) if e.kind == "phase"]
    assert phases == ["event", "travel", "end"]
    assert state.turn_player == 1


def test_trn_02_clockwise_from_first():
    """NP-TRN-02: after the first player, turns go clockwise (seat order,
    wrapping around)."""
    state = start(PLAIN + ("Roald Amundsen",), first=1)
    seen = []
    for _ in range(7):
        seen.append(state.turn_player)
        play(state, *BLIZZARD)
    assert seen == [1, 2, 0, 1, 2, 0, 1]


# ------------------------------------------------------------------ Event phase
# In these tests the tested stat is set to 3 and the others to 9, and the test
# die shows 4: a fail only if the right stat is tested.

def test_evt_01_one_event_roll_per_turn():
    """NP-EVT-01: each turn starts with exactly one Event Table roll, and only
    the rolled row is resolved."""
    state = start()
    play(state, "roll 10", "roll 1")             # Bitter Cold, Gear test passed
    assert labels(state)[0].startswith("draw ")  # straight on to Travel
    travel(state, THREE)
    log = turn_log(state, 0)
    assert [e.text for e in log if e.kind == "row"] == ["events: Bitter Cold"]
    assert [e.value for e in log if e.kind == "roll"] == [10, 1]
    assert stats(state, 0)["will"] == 5
    # The next turn starts with its own Event roll.
    assert state.turn_player == 1 and state.current_player == CHANCE
    assert labels(state) == [f"roll {v}" for v in range(1, 11)]


def test_evt_02_blizzard_skips_travel():
    """NP-EVT-02: a Blizzard has no test and skips the Travel Phase (no
    cards, no movement), but the End Phase still eats 1 Food."""
    state = start()
    play(state, *BLIZZARD)
    s = stats(state, 0)
    assert s["position"] == 4
    assert s["food"] == 11
    assert state.pile("hand", 0) == [] and len(state.pile("travel")) == 45
    assert state.turn_player == 1
    log = turn_log(state, 0)
    assert [e.kind for e in log].count("test") == 0
    assert [e.text for e in log if e.kind in ("phase", "skip")] == [
        "event phase", "skips the travel phase", "end phase"]


def test_evt_03_difficult_terrain():
    """NP-EVT-03: Difficult Terrain tests Skill, and a fail gives -2 to the
    Move Total."""
    state = start()
    set_stats(state, 0, skill=3, will=9, gear=9)
    play(state, "roll 2", "roll 4", "roll 1")    # fail, Morale Check passed
    assert stats(state, 0)["next_move"] == -2
    travel(state, THREE)
    assert stats(state, 0)["position"] == 4 + 3 + 1 - 2


def test_evt_04_hardships():
    """NP-EVT-04: Hardships tests Will, and a fail costs 1 Will."""
    state = start()
    set_stats(state, 0, will=3, skill=9, gear=9)
    play(state, "roll 3", "roll 4", "roll 1")
    s = stats(state, 0)
    assert s["will"] == 2
    assert (s["skill"], s["gear"], s["next_move"]) == (9, 9, 0)


def test_evt_05_crevasse():
    """NP-EVT-05: Crevasse tests Skill, and a fail means one roll on the
    Casualty Table (1d6)."""
    state = start()
    set_stats(state, 0, skill=3, will=9, gear=9)
    play(state, "roll 4", "roll 4")
    assert state.current_player == CHANCE
    assert labels(state) == [f"roll {v}" for v in range(1, 7)]
    play(state, "roll 1", "roll 1")              # lose a man; Morale passed
    assert stats(state, 0)["men"] == 5
    assert labels(state)[0].startswith("draw ")


def test_evt_06_sub_zero_temps():
    """NP-EVT-06: Sub-Zero Temps tests Gear, and a fail means one roll on the
    Casualty Table."""
    state = start()
    set_stats(state, 0, gear=3, will=9, skill=9)
    play(state, "roll 5", "roll 4")
    assert labels(state) == [f"roll {v}" for v in range(1, 7)]
    play(state, "roll 3", "roll 1")              # Fear: -1 Will
    assert stats(state, 0)["will"] == 8


def test_evt_07_lost_supplies():
    """NP-EVT-07: Lost Supplies tests Will, and a fail costs 1 Gear and 1
    Food."""
    state = start()
    set_stats(state, 0, will=3, gear=9, skill=9)
    play(state, "roll 6", "roll 4", "roll 1")
    s = stats(state, 0)
    assert (s["gear"], s["food"], s["will"]) == (8, 11, 3)


def test_evt_08_frost_bite():
    """NP-EVT-08: Frost Bite tests Gear, and a fail means one roll on the
    Casualty Table."""
    state = start()
    set_stats(state, 0, gear=3, will=9, skill=9)
    play(state, "roll 7", "roll 4")
    assert labels(state) == [f"roll {v}" for v in range(1, 7)]
    play(state, "roll 6", "roll 1")              # bad decisions: -1 Skill
    assert stats(state, 0)["skill"] == 8


def test_evt_09_fatigue():
    """NP-EVT-09: Fatigue tests Will, and a fail gives -2 to the Move
    Total."""
    state = start()
    set_stats(state, 0, will=3, gear=9, skill=9)
    play(state, "roll 8", "roll 4", "roll 1")
    assert stats(state, 0)["next_move"] == -2
    travel(state, THREE)
    assert stats(state, 0)["position"] == 4 + 3 + 1 - 2


def test_evt_10_eskimo_guides():
    """NP-EVT-10: Eskimo Guides tests Skill; a pass gives +2 to the Move
    Total, and a fail has no event penalty but is followed by a Morale
    Check."""
    state = start()
    set_stats(state, 0, skill=7, will=3, gear=3)
    play(state, "roll 9", "roll 6")              # passes only against Skill 7
    assert labels(state)[0].startswith("draw ")  # no Morale Check
    travel(state, THREE)
    assert stats(state, 0)["position"] == 4 + 3 + 1 + 2
    # Seat 1 fails it: a Morale Check follows (failed here with 9 vs Will 6).
    set_stats(state, 1, skill=3, gear=9)
    play(state, "roll 9", "roll 4")
    assert state.current_player == CHANCE
    assert labels(state) == [f"roll {v}" for v in range(1, 11)]
    play(state, "roll 9")
    s = stats(state, 1)
    assert s["failed_morale"] is True and s["next_move"] == 0
    travel(state, THREE)
    assert stats(state, 1)["position"] == 4 + 3 + 1


def test_evt_11_bitter_cold():
    """NP-EVT-11: Bitter Cold tests Gear, and a fail costs 1 Will."""
    state = start()
    set_stats(state, 0, gear=3, will=9, skill=9)
    play(state, "roll 10", "roll 4", "roll 1")
    s = stats(state, 0)
    assert (s["will"], s["gear"]) == (8, 3)


def test_evt_12_next_move_is_this_turns_travel():
    """NP-EVT-12: a Next Move Total modifier applies to the same turn's
    Travel Phase and is not carried into the player's next turn (reading)."""
    state = start()
    play(state, "roll 8", "roll 9", "roll 1")    # Fatigue failed: -2
    travel(state, THREE)
    assert stats(state, 0)["position"] == 4 + 4 - 2
    play(state, *BLIZZARD)                       # seat 1
    assert state.turn_player == 0
    assert stats(state, 0)["next_move"] == 0
    play(state, *QUIET)
    travel(state, THREE)
    assert stats(state, 0)["position"] == 6 + 4


# ------------------------------------------------------------------ Tests & morale

def test_tst_01_roll_equal_to_stat_passes():
    """NP-TST-01: a test is one d10 roll against the stat's current value,
    and a roll equal to it passes."""
    state = start()
    state.set_stat("will", 3, 0)
    play(state, "roll 3", "roll 3")              # Hardships, 3 against Will 3
    assert stats(state, 0)["will"] == 3
    assert labels(state)[0].startswith("draw ")  # no Morale Check
    tests = [e for e in turn_log(state, 0) if e.kind == "test"]
    assert [e.value for e in tests] == [("will", 3, 3, True, 0)]


def test_tst_02_roll_above_stat_fails():
    """NP-TST-02: a roll higher than the stat fails the test (reading)."""
    state = start()
    state.set_stat("will", 3, 0)
    play(state, "roll 3", "roll 4")              # Hardships, 4 against Will 3
    assert stats(state, 0)["will"] == 2
    assert labels(state) == [f"roll {v}" for v in range(1, 11)]  # Morale Check


def test_tst_03_failed_test_triggers_will_check():
    """NP-TST-03: a failed test is followed at once by a Morale Check against
    Will."""
    state = start()
    set_stats(state, 0, will=3, skill=5, gear=9)
    play(state, "roll 2", "roll 6")              # Difficult Terrain failed
    assert state.current_player == CHANCE
    assert labels(state) == [f"roll {v}" for v in range(1, 11)]
    play(state, "roll 4")                        # fails only against Will 3
    assert stats(state, 0)["failed_morale"] is True
    texts = [e.text for e in turn_log(state, 0) if e.kind == "test"]
    assert texts == ["test of skill (5): rolled 6, failed by 1",
                     "test of will (3): rolled 4, failed by 1"]


def test_tst_04_morale_failed_by_four_gives_up():
    """NP-TST-04: a Morale Check failed by 4 (roll minus Will) turns the
    expedition back at once, and its move then goes toward its start."""
    state = start()
    state.set_stat("position", 14, 0)
    play(state, "roll 9", "roll 6", "roll 9")    # Eskimo Guides failed; Morale 9 vs Will 5
    s = stats(state, 0)
    assert s["gave_up"] is True and s["heading_back"] is True
    travel(state, THREE)
    assert stats(state, 0)["position"] == 14 - 4


def test_tst_05_morale_failed_by_three_no_turn_back():
    """NP-TST-05: a Morale Check failed by less than 4 only counts as a failed
    Morale Check (the never-failed VP is lost); the expedition goes on."""
    state = start()
    state.set_stat("position", 14, 0)
    play(state, "roll 9", "roll 6", "roll 8")    # Eskimo Guides failed; Morale 8 vs Will 5
    s = stats(state, 0)
    assert s["failed_morale"] is True
    assert s["gave_up"] is False and s["heading_back"] is False
    travel(state, THREE)
    assert stats(state, 0)["position"] == 14 + 4
    assert state.result().scores == (0, 1)


def test_tst_06_failed_morale_check_does_not_chain():
    """NP-TST-06: a failed Morale Check is not followed by another Morale
    Check (reading)."""
    state = start()
    play(state, "roll 9", "roll 6", "roll 8")    # Eskimo Guides failed, Morale failed
    assert stats(state, 0)["failed_morale"] is True
    assert state.current_player == CHANCE
    assert labels(state)[0].startswith("draw ")
    assert [e.kind for e in turn_log(state, 0)].count("test") == 2


def test_tst_07_penalty_before_morale_check():
    """NP-TST-07: the failed test's penalty is applied before the Morale
    Check, so Hardships' -1 Will makes a Morale roll of 5 fail (reading)."""
    state = start()
    play(state, "roll 3", "roll 6")              # Hardships failed: Will 5 -> 4
    assert stats(state, 0)["will"] == 4
    play(state, "roll 5")
    assert stats(state, 0)["failed_morale"] is True
    tests = [e.value for e in turn_log(state, 0) if e.kind == "test"]
    assert tests[-1] == ("will", 5, 4, False, 1)


def test_tst_08_gave_up_goes_home_without_pole_vp():
    """NP-TST-08: an expedition that gave up before the Pole moves only
    toward its start, earns no Pole VP, and still scores getting back
    (reading)."""
    state = start()
    state.set_stat("position", 14, 0)
    play(state, "roll 9", "roll 6", "roll 9")    # Eskimo Guides failed; gives up
    travel(state, THREE)                         # 14 -> 10
    assert stats(state, 0)["position"] == 10
    play(state, *BLIZZARD)                       # seat 1
    play(state, *QUIET)
    travel(state, ["Trek"] * 5)                  # 7 toward home: stops on 4
    s = stats(state, 0)
    assert s["position"] == 4
    assert s["reached_pole"] is False
    assert s["status"] == "returned"
    # Back 1 + first back 1; no Pole VP, Morale Check failed.
    assert state.result().scores[0] == 2
