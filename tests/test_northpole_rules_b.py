"""Scenario tests for the North Pole ruleset, part B: Travel phase, Travel
deck, End phase, Casualties, Movement & board, Victory, Hoax, Time, Ship.

Every die and card is forced (explicit chance mode).  Stats are only set by
hand to build a mid-game situation; the rule under test always runs through
the engine."""

from __future__ import annotations

from collections import Counter

from rulelang import CHANCE

from northpole_helpers import GAME, PLAIN, draw, play, start, stats
from helpers import labels

D10 = [f"roll {v}" for v in range(1, 11)]
D6 = [f"roll {v}" for v in range(1, 7)]


# --------------------------------------------------------------- helpers

def quiet_event(state):
    """Event roll 3 (Hardships) with the Will test passed (roll 1): no
    effect, no Morale Check, no Move modifier."""
    play(state, "roll 3", "roll 1")


def blizzard(state):
    """Event roll 1: no test, the Travel Phase is skipped."""
    play(state, "roll 1")


def travel(state, cards, discard="discard nothing", redraw=()):
    """Draw these 5 cards, make the discard decision, draw replacements."""
    draw(state, *cards)
    play(state, discard)
    draw(state, *redraw)


def even_dogs(state, *seats):
    """Dogs = Men, so the Dogs stat gives no Move modifier (NP-STA-03)."""
    for seat in seats:
        state.set_stat("dogs", stats(state, seat)["men"], seat)


def even_start(presets=PLAIN, first=0):
    state = start(presets, first)
    even_dogs(state, *range(len(presets)))
    return state


def moved_by(cards, discard="discard nothing", redraw=(), setup=None):
    """Seat 0 (Amundsen, start 4, Dogs = Men) plays a quiet event and
    travels with these cards; returns (spaces moved, state)."""
    state = even_start()
    if setup:
        setup(state)
    before = stats(state, 0)["position"]
    quiet_event(state)
    travel(state, cards, discard, redraw)
    return stats(state, 0)["position"] - before, state


def assert_waiting_for_event(state, seat):
    """The turn has passed to ``seat``, whose Event roll (a d10) is next."""
    assert state.turn_player == seat
    assert state.current_player == CHANCE
    assert labels(state) == D10


def deck_total(state):
    cards = list(state.pile("travel")) + list(state.pile("discard"))
    for seat in range(state.players):
        cards += state.pile("hand", seat)
    return len(cards)


# --------------------------------------------------------------- Travel phase

def test_trv_01_draws_five_cards():
    """NP-TRV-01: The Travel Phase draws exactly 5 cards from the shared deck into the player's hand."""
    state = even_start()
    quiet_event(state)
    assert state.pile("hand", 0) == []
    moves = state.legal_moves()
    # A draw from the full 45-card shared deck: Trek is 10 of 45.
    assert {m.label: m.probability for m in moves}["draw Trek"] * 45 == 10
    for i in range(5):
        assert state.current_player == CHANCE, f"draw {i + 1} not offered"
        assert state.turn_player == 0
        draw(state, "Snow")
    # After five draws it is the player's discard decision, not another draw.
    assert state.current_player == 0
    assert "discard nothing" in labels(state)
    assert sorted(state.pile("hand", 0)) == ["Snow"] * 5
    assert len(state.pile("travel")) == 40
    assert len(state.pile("hand", 1)) == 0


def test_trv_02_discard_up_to_two_and_redraw_each():
    """NP-TRV-02: The player may discard 0, 1 or 2 cards (never 3) and draws exactly one replacement per discarded card, once when there is no Hoax."""
    state = even_start()
    quiet_event(state)
    draw(state, "Snow", "Snow", "Open Water", "Cracked Ice", "Ice")
    options = labels(state)
    assert "discard nothing" in options
    assert "discard Open Water" in options
    assert "discard Cracked Ice, Open Water" in options
    assert all(len(lab.split(", ")) <= 2 for lab in options)
    assert len(options) == 1 + 4 + 7  # nothing, 4 distinct singles, 7 distinct pairs
    play(state, "discard Cracked Ice, Open Water")
    # Two replacements, then the turn is over (no second discard round).
    draw(state, "Trek")
    assert state.current_player == CHANCE and "draw Trek" in labels(state)
    draw(state, "Trek")
    assert_waiting_for_event(state, 1)
    assert sorted(state.pile("discard")) == sorted(
        ["Cracked Ice", "Open Water", "Snow", "Snow", "Trek", "Trek", "Ice"])

    # One card discarded: exactly one replacement.
    state = even_start()
    quiet_event(state)
    draw(state, "Snow", "Snow", "Snow", "Snow", "Open Water")
    play(state, "discard Open Water")
    draw(state, "Ice")
    assert_waiting_for_event(state, 1)
    assert stats(state, 0)["position"] == 4 + 1

    # Nothing discarded: no replacement at all.
    state = even_start()
    quiet_event(state)
    draw(state, "Snow", "Snow", "Snow", "Snow", "Ice")
    play(state, "discard nothing")
    assert_waiting_for_event(state, 1)


def test_trv_03_move_total_is_final_hand_plus_modifiers():
    """NP-TRV-03: The Move Total is the Move sum of the 5 cards held after redrawing plus the Dogs-stat and event modifiers, and discarded cards do not count."""
    state = start()  # Amundsen: Dogs 7 > Men 6 gives +1
    play(state, "roll 9", "roll 1")  # Eskimo Guides, Skill test passed: +2
    draw(state, "Trek", "Ice", "Snow", "Open Water", "Cracked Ice")
    play(state, "discard Open Water")
    draw(state, "Trek")
    # Held: Trek, Ice, Snow, Cracked Ice, Trek = 1+1+0-1+1 = 2; +1 Dogs; +2 event.
    assert stats(state, 0)["position"] == 4 + 2 + 1 + 2


def test_trv_04_two_dogs_cards_add_one():
    """NP-TRV-04: Playing two Dogs cards adds +1 to the Move Total, while a single Dogs card adds nothing extra."""
    two, _ = moved_by(["Dogs", "Dogs", "Snow", "Snow", "Snow"])
    assert two == 2 + 1
    one, _ = moved_by(["Dogs", "Ice", "Snow", "Snow", "Snow"])
    assert one == 2


def test_trv_05_dogs_cards_over_dogs_stat_count_nothing():
    """NP-TRV-05: With Dogs stat 1, only one of three Dogs cards counts and no 2-card bonus is given (reading: extras count 0, bonus counts only cards within the limit)."""
    def dogs_one(state):
        state.set_stat("men", 1, 0)
        state.set_stat("dogs", 1, 0)  # Dogs = Men: no stat modifier

    moved, state = moved_by(["Dogs", "Dogs", "Dogs", "Snow", "Snow"], setup=dogs_one)
    assert moved == 1
    # The extra Dogs cards were played, not forced out: all go to discard.
    assert Counter(state.pile("discard"))["Dogs"] == 3

    def dogs_two(state):
        state.set_stat("men", 2, 0)
        state.set_stat("dogs", 2, 0)

    moved, _ = moved_by(["Dogs", "Dogs", "Dogs", "Snow", "Snow"], setup=dogs_two)
    assert moved == 2 + 1  # two count, and those two earn the bonus


def test_trv_06_four_trek_cards_add_one():
    """NP-TRV-06: Playing 4 Trek cards adds +1 to the Move Total, while 3 Trek cards add nothing extra."""
    four, _ = moved_by(["Trek", "Trek", "Trek", "Trek", "Snow"])
    assert four == 4 + 1
    five, _ = moved_by(["Trek", "Trek", "Trek", "Trek", "Trek"])
    assert five == 5 + 1
    three, _ = moved_by(["Trek", "Trek", "Trek", "Ice", "Snow"])
    assert three == 4


def test_trv_07_played_cards_go_to_discard():
    """NP-TRV-07: After the Travel Phase the hand is empty and the 5 played cards (plus any discarded ones) are in the discard pile."""
    _, state = moved_by(["Trek", "Dogs", "Ice", "Hunting", "Open Water"],
                        discard="discard Open Water", redraw=["Snow"])
    assert state.pile("hand", 0) == []
    assert sorted(state.pile("discard")) == sorted(
        ["Trek", "Dogs", "Ice", "Hunting", "Snow", "Open Water"])
    assert len(state.pile("travel")) == 45 - 6
    assert deck_total(state) == 45


# --------------------------------------------------------------- Travel deck

def _deck_count(kind):
    return Counter(start().pile("travel"))[kind]


BASE4 = ["Ice", "Ice", "Ice", "Ice"]  # Move 4, no card bonus


def test_dck_01_trek():
    """NP-DCK-01: The deck holds 10 Trek cards and a Trek card moves +1."""
    assert _deck_count("Trek") == 10
    moved, _ = moved_by(BASE4 + ["Trek"])
    assert moved == 4 + 1


def test_dck_02_dogs():
    """NP-DCK-02: The deck holds 10 Dogs cards and a Dogs card moves +1."""
    assert _deck_count("Dogs") == 10
    moved, _ = moved_by(BASE4 + ["Dogs"])
    assert moved == 4 + 1


def test_dck_03_ice():
    """NP-DCK-03: The deck holds 5 Ice cards and an Ice card moves +1."""
    assert _deck_count("Ice") == 5
    moved, _ = moved_by(["Snow", "Snow", "Snow", "Snow", "Ice"])
    assert moved == 1
    moved, _ = moved_by(["Ice"] * 5)
    assert moved == 5


def test_dck_04_snow():
    """NP-DCK-04: The deck holds 5 Snow cards and a Snow card moves 0."""
    assert _deck_count("Snow") == 5
    moved, _ = moved_by(BASE4 + ["Snow"])
    assert moved == 4


def test_dck_05_hunting():
    """NP-DCK-05: The deck holds 5 Hunting cards; a Hunting card moves 0 and each played Hunting card gives 1 Food."""
    assert _deck_count("Hunting") == 5
    # Amundsen starts with Food 12; the End Phase uses 1.
    moved, state = moved_by(BASE4 + ["Hunting"])
    assert moved == 4
    assert stats(state, 0)["food"] == 12 + 1 - 1
    moved, state = moved_by(["Ice", "Ice", "Ice", "Hunting", "Hunting"])
    assert moved == 3
    assert stats(state, 0)["food"] == 12 + 2 - 1
    # A discarded Hunting card is not played and gives no Food.
    moved, state = moved_by(["Ice", "Ice", "Ice", "Ice", "Hunting"],
                            discard="discard Hunting", redraw=["Snow"])
    assert stats(state, 0)["food"] == 12 - 1


def test_dck_06_cracked_ice():
    """NP-DCK-06: The deck holds 5 Cracked Ice cards and a Cracked Ice card moves -1."""
    assert _deck_count("Cracked Ice") == 5
    moved, _ = moved_by(BASE4 + ["Cracked Ice"])
    assert moved == 4 - 1


def test_dck_07_open_water():
    """NP-DCK-07: The deck holds 5 Open Water cards and an Open Water card moves -2."""
    assert _deck_count("Open Water") == 5
    moved, _ = moved_by(BASE4 + ["Open Water"])
    assert moved == 4 - 2
    assert len(start().pile("travel")) == 45  # the seven kinds are the whole deck


# --------------------------------------------------------------- End phase

def test_end_01_uses_one_food():
    """NP-END-01: Each End Phase uses 1 Food, also after a skipped Travel Phase, and then the turn passes."""
    state = start()
    assert stats(state, 0)["food"] == 12
    blizzard(state)
    assert stats(state, 0)["food"] == 11
    assert_waiting_for_event(state, 1)
    quiet_event(state)
    travel(state, ["Snow"] * 5)
    assert stats(state, 1)["food"] == 10 - 1
    assert stats(state, 0)["food"] == 11


def test_end_02_no_food_costs_a_dog():
    """NP-END-02: With 0 Food in the End Phase the expedition loses 1 Dog instead and does not roll on the Casualty Table."""
    state = start()
    state.set_stat("food", 0, 0)
    blizzard(state)
    assert stats(state, 0)["dogs"] == 6
    assert stats(state, 0)["food"] == 0
    assert stats(state, 0)["men"] == 6
    assert_waiting_for_event(state, 1)  # a d10 for P1, not a d6 casualty roll


def test_end_03_no_food_no_dogs_rolls_casualty():
    """NP-END-03: With 0 Food and 0 Dogs the End Phase rolls once on the Casualty Table (a d6) and applies the result."""
    state = start()
    state.set_stat("food", 0, 0)
    state.set_stat("dogs", 0, 0)
    blizzard(state)
    assert state.turn_player == 0
    assert state.current_player == CHANCE
    assert labels(state) == D6
    play(state, "roll 6")
    assert stats(state, 0)["skill"] == 4
    assert_waiting_for_event(state, 1)


def test_end_04_last_food_used_without_penalty():
    """NP-END-04: An expedition with 1 Food ends the End Phase at 0 Food with its Dogs untouched and no casualty roll."""
    state = start()
    state.set_stat("food", 1, 0)
    blizzard(state)
    assert stats(state, 0)["food"] == 0
    assert stats(state, 0)["dogs"] == 7
    assert_waiting_for_event(state, 1)
    # The next End Phase, now with no Food, costs a Dog.
    blizzard(state)
    blizzard(state)
    assert stats(state, 0)["dogs"] == 6


# --------------------------------------------------------------- Casualties

def casualty(roll, setup=None):
    """P0 (Amundsen, Skill 5) fails a Crevasse test and rolls ``roll`` on
    the Casualty Table; returns the state right after the casualty."""
    state = start()
    if setup:
        setup(state)
    play(state, "roll 4", "roll 10")  # Crevasse, Skill test failed
    assert labels(state) == D6
    play(state, f"roll {roll}")
    return state


def _row(state):
    return [e.text for e in state.log if e.kind == "row"][-1]


def test_cas_01_lose_a_man():
    """NP-CAS-01: Casualty roll 1 costs 1 Men and nothing else."""
    state = casualty(1)
    s = stats(state, 0)
    assert (s["men"], s["dogs"], s["will"], s["skill"]) == (5, 7, 5, 5)


def test_cas_02_lose_a_dog_or_a_man():
    """NP-CAS-02: Casualty roll 2 costs 1 Dog, or 1 Men when there are no Dogs."""
    s = stats(casualty(2), 0)
    assert (s["men"], s["dogs"]) == (6, 6)
    s = stats(casualty(2, lambda st: st.set_stat("dogs", 0, 0)), 0)
    assert (s["men"], s["dogs"]) == (5, 0)


def test_cas_03_fear():
    """NP-CAS-03: Casualty roll 3 (Fear) costs 1 Will."""
    state = casualty(3)
    s = stats(state, 0)
    assert (s["men"], s["dogs"], s["will"], s["skill"]) == (6, 7, 4, 5)
    assert "Fear" in _row(state)


def test_cas_04_lose_two_dogs_or_two_men():
    """NP-CAS-04: Casualty roll 4 costs 2 Dogs, or 2 Men with no Dogs, and with 1 Dog only that Dog (reading)."""
    s = stats(casualty(4), 0)
    assert (s["men"], s["dogs"]) == (6, 5)
    s = stats(casualty(4, lambda st: st.set_stat("dogs", 0, 0)), 0)
    assert (s["men"], s["dogs"]) == (4, 0)
    s = stats(casualty(4, lambda st: st.set_stat("dogs", 1, 0)), 0)
    assert (s["men"], s["dogs"]) == (6, 0)


def test_cas_05_defeatism():
    """NP-CAS-05: Casualty roll 5 (Defeatism) costs 1 Will."""
    state = casualty(5)
    s = stats(state, 0)
    assert (s["men"], s["dogs"], s["will"], s["skill"]) == (6, 7, 4, 5)
    assert "Defeatism" in _row(state)


def test_cas_06_bad_decisions():
    """NP-CAS-06: Casualty roll 6 (bad decisions) costs 1 Skill."""
    state = casualty(6)
    s = stats(state, 0)
    assert (s["men"], s["dogs"], s["will"], s["skill"]) == (6, 7, 5, 4)


# --------------------------------------------------------------- Movement & board

def test_mov_01_outward_move_by_total():
    """NP-MOV-01: On the way out the pawn moves toward the Pole by exactly the Move Total."""
    state = even_start()
    state.set_stat("position", 10, 0)
    quiet_event(state)
    travel(state, ["Trek", "Ice", "Ice", "Snow", "Snow"])
    assert stats(state, 0)["position"] == 13


def test_mov_02_non_positive_total_does_not_move():
    """NP-MOV-02: A Move Total of 0 or less leaves the pawn where it is (no backward move)."""
    moved, state = moved_by(["Open Water"] * 5,
                            setup=lambda st: st.set_stat("position", 10, 0))
    assert moved == 0
    assert stats(state, 0)["position"] == 10
    moved, _ = moved_by(["Snow"] * 5, setup=lambda st: st.set_stat("position", 10, 0))
    assert moved == 0


def test_mov_03_stop_at_pole():
    """NP-MOV-03: A pawn 2 spaces from the Pole with a Move Total of 5 stops on the Pole (space 29) and the rest is lost."""
    state = even_start()
    state.set_stat("position", 27, 0)
    quiet_event(state)
    travel(state, ["Trek", "Ice", "Ice", "Ice", "Ice"])
    s = stats(state, 0)
    assert s["position"] == 29
    assert s["reached_pole"] is True
    assert s["heading_back"] is True


def test_mov_04_after_pole_move_back_toward_home():
    """NP-MOV-04: After reaching the Pole, the expedition's next Move Total takes it back toward its own start."""
    state = even_start()
    state.set_stat("position", 27, 0)
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Snow", "Snow", "Snow"])
    assert stats(state, 0)["position"] == 29
    blizzard(state)  # P1
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Ice", "Snow", "Snow"])
    assert stats(state, 0)["position"] == 26
    assert stats(state, 0)["status"] == "travelling"


def test_mov_05_stop_on_home_space():
    """NP-MOV-05: A returning pawn 2 spaces from its Ship-adjusted home (space 4) with a Move Total of 5 stops on 4 and has got back."""
    def returning(state):
        state.set_stat("position", 6, 0)
        state.set_stat("reached_pole", True, 0)
        state.set_stat("heading_back", True, 0)

    _, state = moved_by(["Trek", "Ice", "Ice", "Ice", "Ice"], setup=returning)
    s = stats(state, 0)
    assert s["position"] == 4
    assert s["status"] == "returned"
    assert state.stat("first_back") == 0


def test_mov_06_landing_on_opponent_bumps_it_back():
    """NP-MOV-06: Ending a move on an opponent's pawn (not on its start) moves that pawn back 1 space."""
    state = even_start()
    state.set_stat("position", 8, 1)
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Ice", "Ice", "Snow"])
    assert stats(state, 0)["position"] == 8
    assert stats(state, 1)["position"] == 7


def test_mov_07_opponent_on_own_start_not_bumped():
    """NP-MOV-07: Landing on an opponent's pawn that stands on its own starting space does not move it."""
    # Scott (Ship 0, home 0) moves first (Time 1) onto Amundsen's home, 4.
    state = start(("Robert Falcon Scott", "Roald Amundsen"), first=0)
    even_dogs(state, 0, 1)
    assert stats(state, 1)["position"] == stats(state, 1)["start"] == 4
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Ice", "Ice", "Snow"])
    assert stats(state, 0)["position"] == 4
    assert stats(state, 1)["position"] == 4


def test_mov_08_returning_pawn_bumped_toward_pole():
    """NP-MOV-08: A returning opponent's pawn that is landed on is pushed 1 space toward the Pole (reading)."""
    state = even_start()
    state.set_stat("position", 10, 1)
    state.set_stat("reached_pole", True, 1)
    state.set_stat("heading_back", True, 1)
    state.set_stat("position", 6, 0)
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Ice", "Ice", "Snow"])
    assert stats(state, 0)["position"] == 10
    assert stats(state, 1)["position"] == 11


def test_mov_09_all_pawns_bumped_no_chain():
    """NP-MOV-09: Every opponent pawn on the landing space goes back 1, and a pawn bumped onto another pawn does not bump it."""
    state = even_start(PLAIN * 2)
    state.set_stat("position", 6, 0)
    state.set_stat("position", 10, 1)
    state.set_stat("position", 10, 2)
    state.set_stat("position", 9, 3)
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Ice", "Ice", "Snow"])
    assert [stats(state, seat)["position"] for seat in range(4)] == [10, 9, 9, 9]


# --------------------------------------------------------------- Victory

def round_trip():
    """Both PLAIN expeditions go to the Pole and home again; P0 is first
    each time.  Returns {stage: (scores, over, turn_player, ending)}."""
    snaps = {}

    def snap(name):
        r = state.result()
        snaps[name] = (r.scores, state.is_over, state.turn_player, r.ending, r.winners)

    state = even_start()
    state.set_stat("position", 27, 0)
    state.set_stat("position", 27, 1)
    snap("start")
    quiet_event(state)
    travel(state, ["Trek", "Trek", "Trek", "Snow", "Snow"])
    snap("p0_pole")
    quiet_event(state)
    travel(state, ["Trek", "Trek", "Trek", "Snow", "Snow"])
    snap("p1_pole")
    # Both far from the Pole now: set them 2 spaces from home (space 4).
    state.set_stat("position", 6, 0)
    state.set_stat("position", 6, 1)
    quiet_event(state)
    travel(state, ["Dogs", "Dogs", "Dogs", "Hunting", "Hunting"])
    snap("p0_back")
    quiet_event(state)
    travel(state, ["Dogs", "Dogs", "Dogs", "Ice", "Ice"])
    snap("p1_back")
    return snaps, state


def test_win_01_pole_earns_one():
    """NP-WIN-01: Reaching the North Pole (not first) earns 1 VP."""
    snaps, _ = round_trip()
    assert snaps["p0_pole"][0][1] == 1          # only the Morale VP
    assert snaps["p1_pole"][0][1] == 1 + 1


def test_win_02_first_to_pole_earns_two_more():
    """NP-WIN-02: The first expedition to reach the Pole earns 3 VP from it in all, the second only 1."""
    snaps, state = round_trip()
    assert snaps["start"][0] == (1, 1)
    assert snaps["p0_pole"][0] == (1 + 3, 1)
    assert snaps["p1_pole"][0] == (4, 1 + 1)
    assert state.stat("first_to_pole") == 0


def test_win_03_getting_back_earns_one():
    """NP-WIN-03: Getting back alive earns 1 VP, also for an expedition that gave up before the Pole (reading)."""
    snaps, _ = round_trip()
    assert snaps["p1_back"][0][1] - snaps["p1_pole"][0][1] == 1

    # P0 gives up 2 spaces from home, walks home and counts as survived.
    state = even_start()
    state.set_stat("position", 6, 0)
    play(state, "roll 3", "roll 10")   # Hardships, failed: Will 5 -> 4
    play(state, "roll 10")             # Morale Check failed by 6: gives up
    assert stats(state, 0)["gave_up"] is True
    travel(state, ["Ice", "Ice", "Ice", "Snow", "Snow"])
    assert stats(state, 0)["status"] == "returned"
    assert stats(state, 0)["position"] == 4
    # 1 back + 1 first back, no Pole VP, no Morale VP.
    assert state.result().scores[0] == 2


def test_win_04_first_back_earns_one_more():
    """NP-WIN-04: The first expedition to get back earns 2 VP for it in all, the second only 1."""
    snaps, state = round_trip()
    assert snaps["p0_back"][0][0] - snaps["p1_pole"][0][0] == 2
    assert snaps["p1_back"][0][1] - snaps["p1_pole"][0][1] == 1
    assert state.stat("first_back") == 0


def test_win_05_never_failed_morale():
    """NP-WIN-05: A player keeps the 1 VP for never failing a Morale Check (even with none made) and loses it on failing one by less than 4."""
    state = even_start()
    assert state.result().scores == (1, 1)   # nobody has made a Morale Check
    play(state, "roll 3", "roll 10")          # Hardships failed: Will 5 -> 4
    play(state, "roll 6")                     # Morale Check failed by 2
    assert stats(state, 0)["gave_up"] is False
    assert state.result().scores == (0, 1)
    # A passed Morale Check keeps the VP.
    travel(state, ["Snow"] * 5)
    play(state, "roll 3", "roll 10", "roll 1")  # P1: Hardships failed, Morale passed
    assert state.result().scores == (0, 1)


def test_win_06_most_vp_wins_ties_share():
    """NP-WIN-06: At the end the player with most VP is the only winner, and players tied for most VP all win (reading)."""
    snaps, state = round_trip()
    assert state.is_over
    assert state.result().scores == (6, 3)
    assert state.result().winners == (0,)

    # Both expeditions perish with 1 VP each (never failed Morale): a tie.
    state = start()
    state.set_stat("men", 1, 0)
    state.set_stat("men", 1, 1)
    play(state, "roll 4", "roll 10", "roll 1")   # P0: Crevasse failed, lose a man
    assert stats(state, 0)["status"] == "perished"
    play(state, "roll 4", "roll 10", "roll 1")   # P1: the same
    assert state.is_over
    assert state.result().scores == (1, 1)
    assert state.result().winners == (0, 1)


def test_win_07_game_ends_when_all_home_or_lost():
    """NP-WIN-07: The game goes on after the first expedition gets back and ends once every expedition is home or perished."""
    snaps, state = round_trip()
    _, over, turn, ending, winners = snaps["p0_back"]
    assert not over and ending is None
    assert turn == 1
    assert snaps["p1_back"][1] is True
    assert snaps["p1_back"][3] == "every expedition is home or lost"

    # One home, the other perishes: that ends the game too.
    state = even_start()
    state.set_stat("position", 6, 0)
    state.set_stat("heading_back", True, 0)
    state.set_stat("reached_pole", True, 0)
    state.set_stat("men", 1, 1)
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Snow", "Snow", "Snow"])
    assert stats(state, 0)["status"] == "returned"
    assert not state.is_over
    play(state, "roll 4", "roll 10", "roll 1")
    assert state.is_over
    assert state.result().ending == "every expedition is home or lost"


# --------------------------------------------------------------- Hoax

HOAXER = ("Robert Peary", "Roald Amundsen")  # Peary: Hoax 2, Time 1


def test_hox_01_reroll_new_result_stands():
    """NP-HOX-01: A Hoax point rerolls a die on the player's own turn and the new result is used (a Blizzard rerolled into Hardships does not skip travel)."""
    state = start(HOAXER)
    play(state, "roll 1")
    assert labels(state) == ["keep 1", "reroll 1"]
    assert state.current_player == 0
    play(state, "reroll 1")
    assert state.current_player == CHANCE
    play(state, "roll 3", "keep 3")           # Hardships
    play(state, "roll 10")                    # Will 6 test fails...
    assert labels(state) == ["keep 10", "reroll 10"]
    play(state, "reroll 10", "roll 1")        # ...rerolled to a pass; no Hoax left
    assert stats(state, 0)["hoax_left"] == 0
    # Travel happens: the rerolled Blizzard was discarded.
    assert state.current_player == CHANCE and "draw Trek" in labels(state)
    assert stats(state, 0)["will"] == 6
    assert stats(state, 0)["failed_morale"] is False
    rows = [e.text for e in state.log if e.kind == "row"]
    assert rows[-1].endswith("Hardships")
    assert not any("Blizzard" in r for r in rows)


def test_hox_02_extra_discard_round():
    """NP-HOX-02: A Hoax point buys one extra discard round of up to 2 cards, and the final hand after it is what moves."""
    state = start(HOAXER)
    even_dogs(state, 0)
    play(state, "roll 3", "keep 3", "roll 1", "keep 1")
    draw(state, "Open Water", "Open Water", "Cracked Ice", "Cracked Ice", "Snow")
    play(state, "discard Open Water, Open Water")
    draw(state, "Trek", "Trek")
    options = labels(state)
    assert "discard again (Hoax) Cracked Ice, Cracked Ice" in options
    assert "discard again (Hoax) nothing" in options
    assert all(len(o.split(", ")) <= 2 for o in options)
    play(state, "discard again (Hoax) Cracked Ice, Cracked Ice")
    draw(state, "Ice", "Ice")
    assert stats(state, 0)["hoax_left"] == 1
    play(state, "discard again (Hoax) nothing")
    # Trek, Trek, Ice, Ice, Snow = 4 from Peary's home, space 0.
    assert stats(state, 0)["position"] == 4
    assert sorted(state.pile("discard")) == sorted(
        ["Open Water", "Open Water", "Cracked Ice", "Cracked Ice",
         "Trek", "Trek", "Ice", "Ice", "Snow"])

    # The extra round is bought *instead of* a reroll: after two rerolls
    # Peary has no Hoax left and gets only the ordinary discard round.
    state = start(HOAXER)
    even_dogs(state, 0)
    play(state, "roll 1", "reroll 1", "roll 1", "reroll 1", "roll 3")
    play(state, "roll 1")                     # Will test passed, no keep/reroll
    draw(state, "Open Water", "Open Water", "Snow", "Snow", "Snow")
    play(state, "discard Open Water, Open Water")
    draw(state, "Trek", "Trek")
    assert not any("discard again" in lab for lab in labels(state))
    assert stats(state, 0)["position"] == 2
    assert (state.round, state.turn_player) == (2, 0)


def test_hox_03_hoax_is_a_per_turn_allowance():
    """NP-HOX-03: Peary (Hoax 2) can use 2 rerolls in a turn but not a third, and has 2 again on his next turn."""
    state = start(HOAXER)
    play(state, "roll 1", "reroll 1", "roll 1", "reroll 1", "roll 1")
    # Third use not offered: the Blizzard stands and the turn moves on.
    assert state.turn_player == 0 and state.round == 2   # Peary again (Time 1)
    assert labels(state) == D10
    assert stats(state, 0)["hoax"] == 2
    play(state, "roll 1")
    assert labels(state) == ["keep 1", "reroll 1"]
    assert stats(state, 0)["hoax_left"] == 2
    play(state, "reroll 1", "roll 1", "reroll 1", "roll 1")
    assert state.turn_player == 1


# --------------------------------------------------------------- Time

def test_tim_01_pre_rounds_by_time():
    """NP-TIM-01: With Time 0, 2 and 1 (first player the Time 0 seat), turns go Nansen; Nansen, Scott; then everyone clockwise."""
    state = start(("Roald Amundsen", "Fridtjof Nansen", "Robert Falcon Scott"), first=0)
    order = []
    for _ in range(7):
        order.append((state.round, state.turn_player))
        blizzard(state)
    assert order == [(1, 1), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2), (4, 0)]


def test_tim_02_extra_turn_is_full_turn():
    """NP-TIM-02: Nansen's extra Time turns, before Amundsen plays at all, each have an Event roll, a Travel Phase and an End Phase."""
    state = start(("Fridtjof Nansen", "Roald Amundsen"), first=1)
    even_dogs(state, 0)
    assert state.turn_player == 0 and state.round == 1
    assert labels(state) == D10                       # Event roll
    quiet_event(state)
    travel(state, ["Ice", "Ice", "Ice", "Snow", "Snow"])
    s = stats(state, 0)
    assert s["position"] == 2 + 3                     # Ship 1 home, +3
    assert s["food"] == 9                             # End Phase ran
    assert state.turn_player == 0 and state.round == 2
    play(state, "roll 8", "roll 10", "roll 1")        # Fatigue failed: -2 this turn
    travel(state, ["Trek", "Trek", "Trek", "Dogs", "Snow"])
    s = stats(state, 0)
    assert s["position"] == 5 + 2
    assert s["food"] == 8
    assert (state.turn_player, state.round) == (1, 3)
    assert stats(state, 1)["food"] == 12              # Amundsen untouched so far


# --------------------------------------------------------------- Ship

def test_shp_01_ship_base_zero():
    """NP-SHP-01: Ship is 0 for an expedition that adds none (a preset without Ship, or five random rolls without a 7), so its pawn starts on space 0."""
    state = start(("Robert Falcon Scott", "Roald Amundsen"))
    assert stats(state, 0)["ship"] == 0
    assert stats(state, 0)["start"] == stats(state, 0)["position"] == 0

    state = GAME.new_game(players=2, chance="explicit",
                          options={"expedition": ["random", "Roald Amundsen"]})
    play(state, "roll 1", "roll 2", "roll 4", "roll 5", "roll 6")
    play(state, "roll 10", "roll 1")
    assert stats(state, 0)["ship"] == 0
    assert stats(state, 0)["position"] == 0


def test_shp_02_ship_moves_starting_space():
    """NP-SHP-02: Each Ship point puts the pawn 2 spaces past Start (Ship 1 on 2, Ship 2 on 4), and that space is its home."""
    state = start(("Fridtjof Nansen", "Roald Amundsen"))
    assert (stats(state, 0)["ship"], stats(state, 0)["start"], stats(state, 0)["position"]) == (1, 2, 2)
    assert (stats(state, 1)["ship"], stats(state, 1)["start"], stats(state, 1)["position"]) == (2, 4, 4)

    state = GAME.new_game(players=2, chance="explicit",
                          options={"expedition": ["random", "Roald Amundsen"]})
    play(state, "roll 7", "roll 7", "roll 7", "roll 1", "roll 1")
    play(state, "roll 10", "roll 1")
    assert stats(state, 0)["ship"] == 3
    assert stats(state, 0)["start"] == stats(state, 0)["position"] == 6
