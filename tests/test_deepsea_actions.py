"""Deep Sea scenario tests for the Staging actions, Dive tokens, Journals,
links, the player-mat tracks and the Impact board: each checks the item of
../shared/rulebooks/deepsea.checklist.md named in its docstring, with every
die and draw forced (explicit chance mode).  The designed data they lean on
is in rulesets/deepsea.rules."""

from __future__ import annotations

import pytest

from rulelang import CHANCE

from deepsea_helpers import (GAME, answer, count, offered, piece_index, put, setup_game, space,
                             to_staging, zone)

ATTRS = ("reputation", "inspiration", "coordination", "ingenuity")


def staging_turn(players=2, wave=0):
    """Round 1's Staging, the Wave holder to act."""
    return to_staging(setup_game(players, wave=wave))


def own(st, name, seat=0, side="junior", **values):
    """Give seat ``seat`` a Specialist of the tray, face up on ``side``."""
    return put(st, "specialists", name, owner=seat, side=side, **values)


def display(st, *names):
    """Lay exactly these Journals out as the display; the rest go back
    where they came from (an Anchor to the box, a regular to the deck)."""
    for name in GAME.prog.piece_names["journals"]:
        j = st.piece("journals", name)
        if j["place"] == "display":
            put(st, "journals", name, place="box" if j["anchor"] else "deck")
    for name in names:
        put(st, "journals", name, place="display")
    return st


def hold(st, *tokens, seat=0):
    """Seat ``seat`` holds these Dive tokens, taken out of the supply."""
    for name in tokens:
        put(st, "tokens", name, place="held", holder=seat)
        research = GAME.prog.piece_attr["tokens"]["research"][piece_index("tokens", name)]
        st.set_stat("token_research", st.stat("token_research", seat) + research, seat)
    return st


def tier(name):
    return GAME.prog.piece_attr["specialists"]["tier"][piece_index("specialists", name)]


def depth(board):
    return GAME.prog.piece_attr["oceans"]["depth"][piece_index("oceans", board)]


def asked(st):
    """The prompt of the decision waiting, e.g. "Place Impact on"."""
    moves = st.legal_moves()
    if not moves or st.current_player == CHANCE:
        return None
    trial = st.clone()
    seen = len(trial.log)
    trial.apply(moves[0])
    for e in trial.log[seen:]:
        if e.kind == "choose" and e.player == st.current_player:
            return e.text.split(": ", 1)[0]
    return None


def finish_turn(st):
    """End the turn of the player acting."""
    answer(st, "End the turn")
    return st


# ---------------------------------------------------------------- Staging

def test_staging_starts_with_the_wave_and_goes_clockwise():
    """DS-STG-01"""
    st = staging_turn(3, wave=1)
    assert st.current_player == 1
    answer(st, "Pass")
    assert st.current_player == 2
    answer(st, "Pass")
    assert st.current_player == 0
    turns = [e.player for e in st.log if e.round == 1 and e.kind == "turn"]
    assert turns == [1, 2, 0]


def test_a_turn_is_an_activation_or_a_pass():
    """DS-STG-02"""
    st = staging_turn()
    assert offered(st) == ["Activate a Specialist", "Pass"]
    answer(st, "Activate a Specialist")
    assert set(offered(st)) == {"Team Leader 1", "Navigator 1"}
    answer(st, "Navigator 1", "End the turn")
    assert st.piece("specialists", "Navigator 1")["disc"]
    assert st.current_player == 1 and offered(st) == ["Activate a Specialist", "Pass"]
    answer(st, "Pass")
    assert st.stat("out", 1) and not st.stat("out", 0)
    assert st.current_player == 0


def test_a_player_may_pass_with_discs_still_staged():
    """DS-STG-03"""
    st = staging_turn()
    staged = st.stat("staging", 0)
    assert staged > 0
    answer(st, "Pass")
    assert st.stat("out", 0) and st.stat("staging", 0) == staged
    assert st.current_player == 1
    answer(st, "Pass")
    # every seat has passed: the round is over and the discs stayed staged
    assert st.round == 2 and st.stat("staging", 0) == staged


def test_the_actions_offered_are_those_shown_on_the_specialist():
    """DS-STG-11: the Junior Navigator shows Travel only, the Senior Team
    Leader Travel and Dive, the Junior Science Writer Journal."""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Navigator 1")
    assert offered(st) == ["Travel", "End the turn"]
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert offered(st) == ["Travel", "Dive", "End the turn"]
    st = staging_turn()
    own(st, "Science Writer 1")
    answer(st, "Activate a Specialist", "Science Writer 1")
    assert offered(st) == ["Journal", "End the turn"]


def test_there_are_five_actions():
    """DS-STG-12: Travel, Sonar, Dive, Conserve and Journal, each offered by
    a Specialist that shows it and each doing its own thing."""
    seen = set()
    for name, side in [("Team Leader 1", "senior"), ("Oceanographer 1", "senior"),
                       ("Curator 1", "senior")]:
        st = staging_turn()
        own(st, name, side=side)
        st.set_stat("research", 5, 0)
        answer(st, "Activate a Specialist", name)
        seen |= set(offered(st)) - {"End the turn"}
    assert seen == {"Travel", "Sonar", "Dive", "Conserve", "Journal"}
    # the Senior Oceanographer (Sonar and Conserve): each places its own disc
    st = staging_turn()
    own(st, "Oceanographer 1", side="senior")
    put(st, "oceans", "The Sea Star", sonar_used=1)
    st.set_stat("research", 5, 0)
    answer(st, "Activate a Specialist", "Oceanographer 1", "Sonar", "The Sea Star")
    answer(st, "Conserve", "The Sea Star", "a1")
    star = st.piece("oceans", "The Sea Star")
    assert star["sonar_used"] == 2 and star["conserved_by"] == 0


def test_an_action_is_resolved_in_full_before_the_next():
    """DS-STG-18: the Senior Oceanographer's Sonar discovers a board; its
    Conserve is offered only once the Discover (and its bonus) is done."""
    st = staging_turn()
    own(st, "Oceanographer 1", side="senior")
    st.set_stat("research", 5, 0)
    answer(st, "Activate a Specialist", "Oceanographer 1", "Sonar", "The Sea Star")
    answer(st, "the shallower")
    assert "Conserve" not in offered(st)
    st.apply("draw Tide Pools")
    answer(st, "the shallower")
    st.apply("draw The Lagoon")
    assert "Conserve" not in offered(st)
    answer(st, "Tide Pools")
    assert "Conserve" not in offered(st)
    supply = st.stat("supply", 0)
    answer(st, "d1")
    assert st.stat("supply", 0) == supply - 1          # Tide Pools' Discovery bonus, a disc
    assert "Conserve" in offered(st)


def test_an_action_needs_the_players_own_vessel_in_the_zone():
    """DS-STG-20: Dive offers only zones holding a Vessel of the diver's."""
    st = staging_turn()
    put(st, "vessels", "Vessel 2-1", at="b1")         # seat 1 at Coral Gardens
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive")
    assert offered(st) == ["The Sea Star"]
    st = staging_turn()
    put(st, "vessels", "Vessel 1-1", at="b1")
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive")
    assert offered(st) == ["Coral Gardens"]


def test_an_action_needs_its_place_in_the_zone():
    """DS-STG-21: Tide Pools has no Conservation site and Seagrass Meadow no
    Journal site, so Vessels there cannot Conserve or Journal there."""
    st = staging_turn()
    zone(st, "Tide Pools", "d1")
    zone(st, "Seagrass Meadow", "a1")
    put(st, "vessels", "Vessel 1-2", owner=0, at="d1")
    put(st, "vessels", "Vessel 1-3", owner=0, at="a1")
    own(st, "Curator 1", side="senior")                 # Senior: Journal and Conserve
    st.set_stat("research", 6, 0)
    answer(st, "Activate a Specialist", "Curator 1", "Conserve")
    assert offered(st) == ["The Sea Star", "Seagrass Meadow"]
    answer(st, "Seagrass Meadow", "a1")
    answer(st, "Journal")
    assert offered(st) == ["The Sea Star", "Tide Pools"]


# ---------------------------------------------------------------- Travel

def test_travel_moves_one_own_vessel_to_another_zone():
    """DS-TRV-01"""
    st = staging_turn()
    put(st, "vessels", "Vessel 1-2", at="c1")
    answer(st, "Activate a Specialist", "Navigator 1", "Travel")
    assert offered(st) == ["Vessel 1-1", "Vessel 1-2"]          # never seat 1's
    answer(st, "Vessel 1-2")
    assert "c1" not in offered(st)
    answer(st, "b1")
    assert st.piece("vessels", "Vessel 1-2")["at"] == space("ocean", "b1")
    assert st.piece("vessels", "Vessel 1-1")["at"] == space("ocean", "c1")


def test_vessels_never_block_and_may_share_a_zone():
    """DS-TRV-07: seat 1's Vessels at c1 and d1 neither block the way
    through c1 nor the arrival at d1."""
    st = staging_turn()
    zone(st, "Tide Pools", "d1")
    put(st, "vessels", "Vessel 1-1", at="b1")
    put(st, "vessels", "Vessel 2-2", owner=1, at="d1")
    st.set_stat("ingenuity", 1, 0)                               # level 2
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1")
    assert {"c1", "d1"} <= set(offered(st))
    answer(st, "d1")
    at_d1 = [v for v in GAME.prog.piece_names["vessels"]
             if st.piece("vessels", v)["at"] == space("ocean", "d1")]
    assert at_d1 == ["Vessel 1-1", "Vessel 2-2"]


def test_a_vessel_stays_in_its_zone_until_it_travels():
    """DS-TRV-08: after the round, the Vessel is still in Coral Gardens and
    acts there."""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1", "b1", "End the turn")
    answer(st, "Pass", "Pass")
    assert st.round == 2
    assert st.piece("vessels", "Vessel 1-1")["at"] == space("ocean", "b1")
    to_staging(st)
    if st.current_player == 1:
        answer(st, "Pass")
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive")
    assert offered(st) == ["Coral Gardens"]


# ---------------------------------------------------------------- Sonar

def test_sonar_only_in_a_zone_with_an_own_vessel():
    """DS-SON-02"""
    st = staging_turn()
    put(st, "vessels", "Vessel 2-1", at="b1")
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar")
    assert offered(st) == ["The Sea Star"]
    st = staging_turn()
    put(st, "vessels", "Vessel 1-2", owner=0, at="b1")
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar")
    assert offered(st) == ["The Sea Star", "Coral Gardens"]


def test_the_player_picks_one_of_two_sonar_tracks():
    """DS-SON-04: at Midnight Plain the first track is picked and discovers;
    with the first track full the second is used without a question."""
    st = staging_turn()
    zone(st, "Midnight Plain", "c3")
    put(st, "vessels", "Vessel 1-1", at="c3")
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Midnight Plain")
    assert offered(st) == ["the first", "the second"]
    answer(st, "the first")
    plain = st.piece("oceans", "Midnight Plain")
    assert plain["sonar_used"] == 1 and plain["sonar_b_used"] == 0
    # space 1 discovers 3-4: only depth 4 (under c3) has a spot
    assert st.current_player == CHANCE
    assert {depth(m.label[5:]) for m in st.legal_moves()} == {4}
    st = staging_turn()
    zone(st, "Midnight Plain", "c3")
    put(st, "vessels", "Vessel 1-1", at="c3")
    put(st, "oceans", "Midnight Plain", sonar_used=3)
    own(st, "Sonar Technician 2")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Midnight Plain")
    assert st.piece("oceans", "Midnight Plain")["sonar_b_used"] == 1
    assert st.stat("research", 0) == research + 1          # the second track's gift


def test_the_last_sonar_space_completes_the_link_to_the_conservation_site():
    """DS-SON-06: The Drop-off's last Sonar space and its Conservation site
    (seat 1's) are linked (a Research step each); an earlier space is not."""
    st = staging_turn()
    put(st, "vessels", "Vessel 1-1", at="c2")
    put(st, "oceans", "The Drop-off", conserved_by=1, sonar_used=2)
    own(st, "Sonar Technician 2")
    r0, r1 = st.stat("research", 0), st.stat("research", 1)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Drop-off")
    assert st.piece("oceans", "The Drop-off")["sonar_by"] == 0
    assert (st.stat("research", 0), st.stat("research", 1)) == (r0 + 1, r1 + 1)
    st = staging_turn()
    put(st, "vessels", "Vessel 1-1", at="c2")
    put(st, "oceans", "The Drop-off", conserved_by=1, sonar_used=1)
    own(st, "Sonar Technician 2")
    r1 = st.stat("research", 1)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Drop-off")
    assert st.piece("oceans", "The Drop-off")["sonar_by"] is None
    assert st.stat("research", 1) == r1


def test_a_sonar_link_is_paid_before_the_spaces_discover():
    """DS-SON-09: the Sea Star's last space discovers; its link pays both
    players before the first Discover question."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", conserved_by=1, sonar_used=2)
    own(st, "Sonar Technician 2")
    r0, r1 = st.stat("research", 0), st.stat("research", 1)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star")
    assert asked(st) == "Draw from depth"
    assert (st.stat("research", 0), st.stat("research", 1)) == (r0 + 1, r1 + 1)
    texts = [e.text for e in st.log if e.round == 1]
    assert not any(t.startswith("discovers") for t in texts)


# ---------------------------------------------------------------- Discover

def test_a_board_deeper_than_the_technology_level_may_be_discovered():
    """DS-DSC-03: at Technology level 1 seat 0 still draws and places a
    depth-2 board."""
    st = staging_turn()
    assert st.stat("ingenuity", 0) == 0
    own(st, "Sonar Technician 2")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star")
    answer(st, "the deeper")
    st.apply("draw Twilight Reef")
    answer(st, "the deeper")
    st.apply("draw Jelly Bloom")
    answer(st, "Twilight Reef")
    assert offered(st) == ["b2"]
    answer(st, "b2")
    reef = st.piece("oceans", "Twilight Reef")
    assert reef["place"] == "zone" and reef["at"] == space("ocean", "b2")
    assert st.stat("research", 0) == research + 1          # its Discovery bonus


def test_no_board_goes_below_depth_five():
    """DS-DSC-06: a depth-5 board discovered under c4 opens no space below;
    a depth-5 Discover from it then falls back to depth 1."""
    st = staging_turn()
    zone(st, "Midnight Plain", "c3")
    zone(st, "Abyssal Plain", "c4")
    put(st, "vessels", "Vessel 1-1", at="c4")
    own(st, "Sonar Technician 2")
    own(st, "Sonar Technician 3")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Abyssal Plain")
    assert {depth(m.label[5:]) for m in st.legal_moves()} == {5}    # depth 4 has no spot
    st.apply("draw Hadal Trench")
    st.apply("draw The Abyss")
    answer(st, "Hadal Trench")
    assert offered(st) == ["c5"]
    answer(st, "c5", "a1")                                       # its Discovery Impact
    ready = [z for z in GAME.prog.piece_names["ocean"]
             if st.piece("ocean", z)["ready"] and not st.piece("ocean", z)["open"]]
    assert sorted(ready) == ["a1", "b2", "d1", "e1"]               # nothing below c5
    answer(st, "End the turn", "Pass")
    put(st, "vessels", "Vessel 1-1", at="c5")
    answer(st, "Activate a Specialist", "Sonar Technician 3", "Sonar", "Hadal Trench")
    # Hadal Trench discovers depth 5 only, which has no spot: the shallowest, depth 1
    assert st.current_player == CHANCE
    assert {depth(m.label[5:]) for m in st.legal_moves()} == {1}


def test_discover_draws_only_from_a_depth_with_a_spot():
    """DS-DSC-08: the Sea Star names depths 1-2; with no depth-2 spot the
    player is not asked and draws depth-1 boards only."""
    st = staging_turn()
    st.set_piece("ocean", "b2", "ready", False)          # the only depth-2 spot, closed
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star")
    assert st.current_player == CHANCE
    drawn = [m.label[5:] for m in st.legal_moves()]
    assert drawn and {depth(d) for d in drawn} == {1}


def test_discover_draws_what_it_can_and_with_no_spot_does_nothing():
    """DS-DSC-09: with one depth-5 board and one depth-5 spot left, one
    board is drawn and kept; with no spot anywhere, nothing happens."""
    st = staging_turn()
    for col in "abcde":
        for row in (1, 2, 3, 4):
            st.set_piece("ocean", f"{col}{row}", "open", True)
            st.set_piece("ocean", f"{col}{row}", "ready", False)
    for col, board in zip("abcd", ("Hadal Trench", "Challenger Deep", "Snailfish Hollow",
                                   "Amphipod Deep")):
        zone(st, board, f"{col}5")
    st.set_piece("ocean", "e5", "ready", True)
    put(st, "vessels", "Vessel 1-1", at="a5")
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Hadal Trench")
    # one board to draw (no chance to force): the second draw finds nothing
    assert offered(st) == ["The Abyss"] and count(st, "oceans", place="drawn") == 1
    answer(st, "The Abyss", "e5", "a1")                         # its Discovery Impact
    assert st.piece("oceans", "The Abyss")["at"] == space("ocean", "e5")
    # now no spot is left at any depth: a Discover does nothing
    answer(st, "End the turn")
    answer(st, "Pass")
    put(st, "vessels", "Vessel 1-1", at="b5")
    own(st, "Sonar Technician 3")
    answer(st, "Activate a Specialist", "Sonar Technician 3", "Sonar", "Challenger Deep",
           "the first")
    assert st.log[-1].text == "no board can be discovered"
    assert offered(st) == ["End the turn"]


def test_a_discovery_bonus_is_gained_once_only():
    """DS-DSC-14: Tide Pools' Discovery bonus (a disc) on discovery; a later
    arrival there gives only its Arrival bonus (a Research step)."""
    st = staging_turn()
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star", "the shallower")
    st.apply("draw Tide Pools")
    answer(st, "the shallower")
    st.apply("draw The Lagoon")
    supply = st.stat("supply", 0)
    answer(st, "Tide Pools", "d1")
    assert st.stat("supply", 0) == supply - 1
    answer(st, "End the turn")
    answer(st, "Pass")
    supply, research = st.stat("supply", 0), st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1", "d1")
    assert st.stat("supply", 0) == supply and st.stat("research", 0) == research + 1


# ---------------------------------------------------------------- Dive and tokens

def test_dive_needs_no_second_disc():
    """DS-DIV-01: with its last staged disc on the Team Leader, seat 0 still dives."""
    st = staging_turn()
    st.set_stat("staging", 1, 0)
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert st.stat("staging", 0) == 0 and "Dive" in offered(st)
    answer(st, "Dive", "The Sea Star")
    st.apply("draw Echo 2")
    assert st.piece("tokens", "Echo 2")["holder"] == 0 and st.stat("staging", 0) == 0


def test_a_dive_takes_a_token_from_the_site_and_reveals_it():
    """DS-DIV-04"""
    st = staging_turn()
    facedown = count(st, "tokens", place="facedown")
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive", "The Sea Star")
    st.apply("draw Specimen 3")
    assert st.piece("oceans", "The Sea Star")["dive_left"] == 3
    assert st.piece("tokens", "Specimen 3")["place"] == "held"
    assert st.piece("tokens", "Specimen 3")["holder"] == 0
    assert count(st, "tokens", place="facedown") == facedown - 1
    assert st.log[-1].text == "dives at The Sea Star and finds Specimen 3"
    assert st.stat("token_research", 0) == 2


def test_a_token_shows_research_and_most_an_extra():
    """DS-DIV-05: a Specimen shows 2 Research and a Research step; a
    Research token shows 3 and no extra."""
    st = staging_turn()
    hold(st, "Specimen 1", "Research 1")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Specimen 1")
    assert offered(st) == ["Research", "Its extra"]
    answer(st, "Research")
    assert st.stat("research", 0) == research + 2
    answer(st, "Spend a Dive token", "Research 1")
    assert offered(st) == ["Research"]
    answer(st, "Research")
    assert st.stat("research", 0) == research + 2 + 3


def test_any_number_of_tokens_may_be_spent_in_a_turn():
    """DS-DIV-06"""
    st = staging_turn()
    hold(st, "Specimen 1", "Research 1", "Lantern Fish 1")
    research, staged = st.stat("research", 0), st.stat("staging", 0)
    answer(st, "Activate a Specialist", "Navigator 1")
    answer(st, "Spend a Dive token", "Specimen 1", "Research")
    answer(st, "Spend a Dive token", "Research 1", "Research")
    answer(st, "Spend a Dive token", "Lantern Fish 1", "Its extra")
    assert count(st, "tokens", holder=0) == 0
    assert st.stat("research", 0) == research + 5
    assert st.stat("staging", 0) == staged - 1 + 1           # activation, then the Lantern Fish's disc
    assert "Spend a Dive token" not in offered(st)


def test_spent_tokens_are_shuffled_back_when_the_supply_runs_out():
    """DS-DIV-10: the supply is empty; discovering Tide Pools (3 tokens)
    turns the discard pile into the new supply."""
    st = staging_turn()
    spare = [n for n in GAME.prog.piece_names["tokens"]][:21]
    for name in spare:
        put(st, "tokens", name, place="spent")
    st.set_stat("pool_free", 0)
    own(st, "Sonar Technician 2")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star", "the shallower")
    st.apply("draw Tide Pools")
    answer(st, "the shallower")
    st.apply("draw The Lagoon")
    answer(st, "Tide Pools", "d1")
    assert st.piece("oceans", "Tide Pools")["dive_left"] == 3
    assert count(st, "tokens", place="spent") == 0
    assert count(st, "tokens", place="facedown") == 30
    assert st.stat("pool_free") == 21 - 3


def test_a_token_extra_before_between_and_after_the_actions():
    """DS-DIV-12: with the Team Leader (Travel and Dive): a Current's Travel
    before, a Sighting's step between, a Specimen's step after."""
    st = staging_turn()
    hold(st, "Current 1", "Sighting 1", "Specimen 1")
    research, rep = st.stat("research", 0), st.stat("reputation", 0)
    answer(st, "Activate a Specialist", "Team Leader 1")
    answer(st, "Spend a Dive token", "Current 1", "Its extra", "Vessel 1-1", "b1")
    assert st.piece("vessels", "Vessel 1-1")["at"] == space("ocean", "b1")
    answer(st, "Dive", "Coral Gardens")
    st.apply("draw Research 2")
    answer(st, "Spend a Dive token", "Sighting 1", "Its extra", "Reputation")
    assert st.stat("reputation", 0) == rep + 1
    answer(st, "Travel", "Vessel 1-1", "c1")
    answer(st, "Spend a Dive token", "Specimen 1", "Its extra")
    assert st.stat("research", 0) == research + 1 + 1        # Coral Gardens' arrival, the Specimen
    assert offered(st) == ["Spend a Dive token", "End the turn"]


def test_spending_a_token_is_never_a_turn_of_its_own():
    """DS-DIV-13: the Staging question offers no token; without a staged
    disc a token holder passes."""
    st = staging_turn()
    hold(st, "Specimen 1")
    assert offered(st) == ["Activate a Specialist", "Pass"]
    st = staging_turn()
    hold(st, "Specimen 1", seat=1)
    st.set_stat("staging", 0, 1)
    answer(st, "Activate a Specialist", "Navigator 1", "End the turn")
    assert st.stat("out", 1) and st.current_player == 0
    assert st.piece("tokens", "Specimen 1")["holder"] == 1


def test_a_token_extra_after_declining_every_action():
    """DS-DIV-14: the Navigator's Travel is not taken; a Current's Travel is."""
    st = staging_turn()
    hold(st, "Current 1")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Current 1",
           "Its extra", "Vessel 1-1", "b1", "End the turn")
    assert st.piece("vessels", "Vessel 1-1")["at"] == space("ocean", "b1")
    assert st.stat("research", 0) == research + 1
    assert st.current_player == 1


def test_a_stored_token_is_spent_in_a_later_round():
    """DS-DIV-17"""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive", "The Sea Star")
    st.apply("draw Specimen 2")
    answer(st, "End the turn", "Pass", "Pass")
    assert st.round == 2 and st.piece("tokens", "Specimen 2")["holder"] == 0
    to_staging(st)
    assert st.current_player == 1                              # the Wave moved on
    answer(st, "Pass")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Specimen 2", "Research")
    assert st.stat("research", 0) == research + 2
    assert st.piece("tokens", "Specimen 2")["place"] == "spent"


def test_tokens_pay_a_cost_mid_action_but_only_in_the_own_staging_turn():
    """DS-DIV-18: a held Specimen pays the Sea Star's Conservation cost;
    during Recruitment no token can be spent."""
    st = setup_game(2)
    hold(st, "Specimen 1", seat=0)
    assert set(offered(st)) == {"Navigator 1", "Sonar Technician 1", "Diver 1"}
    st = staging_turn()
    hold(st, "Specimen 1")
    own(st, "Ecologist 1")
    st.set_stat("research", 0, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star")
    assert asked(st) == "Spend for Research" and offered(st) == ["Specimen 1"]
    answer(st, "Specimen 1")
    assert st.stat("research", 0) == 0 and st.piece("tokens", "Specimen 1")["place"] == "spent"


def test_a_token_sonar_follows_the_sonar_rules():
    """DS-DIV-19: an Echo's Sonar only in a zone with the own Vessel, and it
    needs a second staged disc (without one, only its Research is offered)."""
    st = staging_turn()
    hold(st, "Echo 1", "Echo 2")
    put(st, "oceans", "The Sea Star", sonar_used=1)
    st.set_stat("staging", 2, 0)
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Echo 1", "Its extra")
    assert offered(st) == ["The Sea Star"]                      # not Coral Gardens
    answer(st, "The Sea Star")
    assert st.piece("oceans", "The Sea Star")["sonar_used"] == 2
    assert st.stat("staging", 0) == 0 and st.stat("research", 0) == research + 1
    answer(st, "Spend a Dive token", "Echo 2")
    assert offered(st) == ["Research"]                          # no disc left for its Sonar


# ---------------------------------------------------------------- Conserve and Research

def test_conserve_needs_a_second_disc_that_goes_into_the_site():
    """DS-CON-01"""
    st = staging_turn()
    own(st, "Ecologist 1")
    st.set_stat("research", 5, 0)
    st.set_stat("staging", 1, 0)
    answer(st, "Activate a Specialist", "Ecologist 1")
    assert "Conserve" not in offered(st)
    st = staging_turn()
    own(st, "Ecologist 1")
    st.set_stat("research", 5, 0)
    staged, sites = st.stat("staging", 0), st.stat("site_discs", 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "a1")
    assert st.stat("staging", 0) == staged - 2 and st.stat("site_discs", 0) == sites + 1
    assert st.piece("oceans", "The Sea Star")["conserved_by"] == 0


def test_a_research_cost_is_the_number_shown():
    """DS-RES-01: Coral Gardens' site costs 1, The Drop-off's 3."""
    for board, square, cost in (("Coral Gardens", "b1", 1), ("The Drop-off", "c2", 3)):
        st = staging_turn()
        put(st, "vessels", "Vessel 1-1", at=square)
        own(st, "Ecologist 1")
        st.set_stat("research", 5, 0)
        answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", board)
        if asked(st) == "Place Impact on":
            answer(st, "d4")                            # a Coordination step, no Research
        assert st.stat("research", 0) == 5 - cost


def test_paying_moves_the_research_cube_down():
    """DS-RES-02: Sediment Cores costs 2 (its Instant Research step after)."""
    st = staging_turn()
    put(st, "vessels", "Vessel 1-1", at="c2")
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Drop-off", "Sediment Cores")
    assert asked(st) == "Promote" and st.stat("research", 0) == 2


# ---------------------------------------------------------------- Journal

def test_journal_needs_a_second_disc_that_goes_into_the_site():
    """DS-JRN-01"""
    st = staging_turn()
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    st.set_stat("staging", 1, 0)
    answer(st, "Activate a Specialist", "Science Writer 1")
    assert "Journal" not in offered(st)
    st = staging_turn()
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    staged, sites = st.stat("staging", 0), st.stat("site_discs", 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census")
    assert st.stat("staging", 0) == staged - 2 and st.stat("site_discs", 0) == sites + 1
    assert st.piece("oceans", "The Sea Star")["journaled_by"] == 0


def test_journal_only_at_a_free_site_in_a_zone_with_an_own_vessel():
    """DS-JRN-02: the Sea Star's site is taken, Coral Gardens has no Vessel
    of seat 0's: only The Drop-off is left."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", journaled_by=1)
    put(st, "vessels", "Vessel 1-2", owner=0, at="c2")
    put(st, "vessels", "Vessel 2-1", at="b1")
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal")
    assert offered(st) == ["The Drop-off"]


def test_a_published_journal_may_show_other_fields():
    """DS-JRN-04: at the Sea Star's biology site, Field Notes (biology and
    geology) and First Survey (geology and biology) may be published."""
    st = staging_turn()
    display(st, "Tide Tables", "Field Notes", "Currents Atlas", "First Survey")
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star")
    assert offered(st) == ["Field Notes", "First Survey"]
    answer(st, "First Survey")
    assert st.piece("journals", "First Survey")["holder"] == 0
    assert st.stat("research", 0) == 3


def test_the_journal_disc_completes_the_link_to_the_conservation_site():
    """DS-JRN-07: the Sea Star's Journal site and seat 1's Conservation disc
    are linked (a Reputation step each)."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", conserved_by=1)
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    rep0, rep1 = st.stat("reputation", 0), st.stat("reputation", 1)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census")
    assert st.piece("oceans", "The Sea Star")["journaled_by"] == 0
    assert (st.stat("reputation", 0), st.stat("reputation", 1)) == (rep0 + 1, rep1 + 1)


def test_journal_pays_places_links_takes_then_instant_then_others():
    """DS-JRN-09: when the Reef Census' Instant promotion is asked, the cost
    is paid, the disc placed, the link paid and the Journal taken, but its
    Others Research step not yet given."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", conserved_by=1)
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    rep1, res1 = st.stat("reputation", 1), st.stat("research", 1)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census")
    assert asked(st) == "Promote"
    assert st.stat("research", 0) == 3
    assert st.piece("oceans", "The Sea Star")["journaled_by"] == 0
    assert st.stat("reputation", 1) == rep1 + 1
    assert st.piece("journals", "Reef Census")["holder"] == 0
    assert st.stat("research", 1) == res1
    answer(st, "Navigator 1")
    assert st.stat("research", 1) == res1 + 1


def _publish(st, journal):
    """Seat 0 publishes ``journal`` at the Sea Star, promoting the Science Writer."""
    own(st, "Science Writer 1")
    st.set_stat("research", 6, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", journal)
    return st


def test_anchor_journals_work_like_regular_ones():
    """DS-JRN-11: the Anchor Reef Census and the regular Marine Snow (both
    biology, both a promotion and a Research step for the others)."""
    results = []
    for journal in ("Reef Census", "Marine Snow"):
        st = staging_turn()
        display(st, "Reef Census", "Marine Snow", "Tide Tables", "Sediment Cores")
        res1 = st.stat("research", 1)
        _publish(st, journal)
        answer(st, "Science Writer 1")
        j = st.piece("journals", journal)
        cost = GAME.prog.piece_attr["journals"]["cost"][piece_index("journals", journal)]
        results.append((j["place"], j["holder"], st.stat("research", 0) == 6 - cost,
                        st.piece("specialists", "Science Writer 1")["side"],
                        st.stat("research", 1) - res1, st.current_player == CHANCE))
    assert results[0] == results[1] == ("owned", 0, True, "senior", 1, True)


def test_an_instant_benefit_goes_to_the_publisher_at_once():
    """DS-JRN-12: First Survey's Instant Reputation step."""
    st = staging_turn()
    display(st, "First Survey", "Tide Tables", "Sediment Cores", "Water Chemistry")
    rep0, rep1 = st.stat("reputation", 0), st.stat("reputation", 1)
    _publish(st, "First Survey")
    assert st.stat("reputation", 0) == rep0 + 1 and st.stat("reputation", 1) == rep1


def test_promotion_is_an_instant_benefit():
    """DS-JRN-13: publishing Tide Tables promotes one of the publisher's Juniors."""
    st = staging_turn()
    put(st, "vessels", "Vessel 1-1", at="e1")
    zone(st, "The Lagoon", "e1")                    # a physics site
    own(st, "Science Writer 1")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Lagoon", "Tide Tables")
    assert asked(st) == "Promote"
    assert offered(st) == ["Navigator 1", "Science Writer 1"]
    answer(st, "Navigator 1")
    assert st.piece("specialists", "Navigator 1")["side"] == "senior"


def test_others_benefits_go_to_every_other_player():
    """DS-JRN-14: the Reef Census' Others Research step, at 3 players."""
    st = staging_turn(3)
    before = [st.stat("research", p) for p in range(3)]
    _publish(st, "Reef Census")
    answer(st, "Science Writer 1")
    after = [st.stat("research", p) for p in range(3)]
    assert after == [6 - 1, before[1] + 1, before[2] + 1]


def test_a_discard_benefit_removes_the_journal():
    """DS-JRN-15: Water Chemistry is discarded for an Impact."""
    st = staging_turn()
    put(st, "journals", "Water Chemistry", place="owned", holder=0)
    answer(st, "Activate a Specialist", "Navigator 1", "Use a Journal")
    assert offered(st) == ["Water Chemistry"]
    answer(st, "Water Chemistry")
    assert offered(st) == ["Discard it"]
    answer(st, "Discard it")
    assert asked(st) == "Place Impact on"
    answer(st, "a1")
    assert st.stat("markers", 0) == 19
    assert st.piece("journals", "Water Chemistry")["place"] == "gone"
    assert "Use a Journal" not in offered(st)


def test_a_once_per_round_benefit_turns_the_journal():
    """DS-JRN-16: Field Notes' Research step once this round."""
    st = staging_turn()
    put(st, "journals", "Field Notes", place="owned", holder=0)
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Use a Journal", "Field Notes")
    assert offered(st) == ["Once this round"]
    answer(st, "Once this round")
    assert st.stat("research", 0) == research + 1
    assert st.piece("journals", "Field Notes")["turned"]


def test_a_turned_journal_waits_for_the_next_round():
    """DS-JRN-17"""
    st = staging_turn()
    put(st, "journals", "Field Notes", place="owned", holder=0)
    answer(st, "Activate a Specialist", "Navigator 1", "Use a Journal", "Field Notes", "Once this round")
    assert "Use a Journal" not in offered(st)
    answer(st, "End the turn", "Pass")
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert "Use a Journal" not in offered(st)
    answer(st, "End the turn")                      # no empty circle left: seat 0 passes
    assert st.round == 2 and not st.piece("journals", "Field Notes")["turned"]
    to_staging(st)
    answer(st, "Pass")                              # seat 1 holds the Wave
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert "Use a Journal" in offered(st)


# ---------------------------------------------------------------- links

def test_a_link_joins_two_features_only():
    """DS-LNK-01: Coral Gardens links its Conservation site to its Journal
    site (a Research step) and has no link from its Sonar track."""
    st = staging_turn()
    put(st, "vessels", "Vessel 1-1", at="b1")
    put(st, "oceans", "Coral Gardens", journaled_by=1, sonar_by=1, sonar_used=2)
    own(st, "Ecologist 1")
    st.set_stat("research", 3, 0)
    r1 = st.stat("research", 1)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "Coral Gardens")
    assert st.stat("research", 1) == r1 + 1            # one link, not two
    assert st.stat("research", 0) == 3 - 1 + 1


def test_the_active_player_gains_a_link_first():
    """DS-LNK-06: Mangrove Edge's link gives an Impact: seat 0 (active)
    places it first, then seat 1."""
    st = staging_turn()
    zone(st, "Mangrove Edge", "d1")
    put(st, "vessels", "Vessel 1-1", at="d1")
    put(st, "oceans", "Mangrove Edge", journaled_by=1)
    own(st, "Ecologist 1")
    st.set_stat("research", 3, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "Mangrove Edge")
    assert asked(st) == "Place Impact on" and st.current_player == 0
    answer(st, "a1")
    assert asked(st) == "Place Impact on" and st.current_player == 1
    answer(st, "b1")
    assert st.piece("impact", "a1")["holder"] == 0 and st.piece("impact", "b1")["holder"] == 1
    assert st.current_player == 0


def test_the_active_player_gains_every_link_first_then_the_others_clockwise():
    """DS-LNK-06: Abyssal Plain's Conservation disc completes its link to
    the Journal site (seat 2, an Impact) and from the last Sonar space
    (seat 1, a Research step): seat 0 gains both, then seat 1, then seat 2."""
    st = staging_turn(3)
    zone(st, "Midnight Plain", "c3")
    zone(st, "Abyssal Plain", "c4")
    put(st, "vessels", "Vessel 1-1", at="c4")
    put(st, "oceans", "Abyssal Plain", journaled_by=2, sonar_by=1, sonar_used=3)
    own(st, "Ecologist 1")
    st.set_stat("research", 5, 0)
    r1 = st.stat("research", 1)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "Abyssal Plain")
    answer(st, "d4")                                   # the site's own Impact
    assert st.current_player == 0 and st.stat("research", 0) == 0
    answer(st, "d1")                                   # seat 0's Impact from the first link
    assert st.current_player == 2 and asked(st) == "Place Impact on"
    # seat 2 is asked only after seat 0's second reward and seat 1's
    assert st.stat("research", 0) == 1 and st.stat("research", 1) == r1 + 1


def test_a_completed_link_pays_only_once():
    """DS-LNK-07: the Senior Oceanographer conserves at the Sea Star (the
    link to seat 1's Journal site pays), then fills its last Sonar space:
    only the new link pays; the first is not paid again."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", journaled_by=1, sonar_used=2)
    own(st, "Oceanographer 1", side="senior")
    st.set_stat("research", 3, 0)
    rep0, rep1 = st.stat("reputation", 0), st.stat("reputation", 1)
    r1 = st.stat("research", 1)
    answer(st, "Activate a Specialist", "Oceanographer 1", "Conserve", "The Sea Star", "a1")
    assert (st.stat("reputation", 0), st.stat("reputation", 1)) == (rep0 + 1, rep1 + 1)
    research = st.stat("research", 0)
    answer(st, "Sonar", "The Sea Star")
    assert st.stat("research", 0) == research + 1       # the Sonar-to-Conservation link, once
    assert (st.stat("reputation", 0), st.stat("reputation", 1)) == (rep0 + 1, rep1 + 1)
    assert st.stat("research", 1) == r1


# ---------------------------------------------------------------- Promotion

def test_promotion_keeps_the_junior_sides_steps():
    """DS-PRO-03: the Navigator's recruit step of Reputation stays when it
    is promoted (its bar adds an Ingenuity step)."""
    st = staging_turn()
    rep, ing = st.stat("reputation", 0), st.stat("ingenuity", 0)
    assert rep == 1                                     # from recruiting the Navigator
    _publish(st, "Reef Census")
    answer(st, "Navigator 1")
    assert st.piece("specialists", "Navigator 1")["side"] == "senior"
    assert st.stat("reputation", 0) == rep and st.stat("ingenuity", 0) == ing + 1


def test_a_team_leader_cannot_be_promoted():
    """DS-PRO-06"""
    st = staging_turn()
    assert st.piece("specialists", "Team Leader 1")["side"] == "senior"
    _publish(st, "Reef Census")
    assert offered(st) == ["Navigator 1", "Science Writer 1"]


def test_a_promotion_without_a_junior_does_nothing():
    """DS-PRO-07"""
    st = staging_turn()
    put(st, "specialists", "Navigator 1", side="senior")
    own(st, "Science Writer 1", side="senior")            # Senior: Journal and Travel
    st.set_stat("research", 4, 0)
    sides = {n: st.piece("specialists", n)["side"] for n in GAME.prog.piece_names["specialists"]}
    res1 = st.stat("research", 1)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census")
    assert asked(st) != "Promote"
    assert {n: st.piece("specialists", n)["side"] for n in sides} == sides
    assert st.stat("research", 1) == res1 + 1              # the Others step came next


# ---------------------------------------------------------------- attribute tracks

def test_four_attribute_tracks_and_research_each_with_its_own_cube():
    """DS-ATT-01"""
    st = setup_game(2)
    for p in range(2):
        assert [st.stat(t, p) for t in ATTRS + ("research",)] == [0] * 5
    st = staging_turn()
    hold(st, "Sighting 1")
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1", "Its extra")
    assert offered(st) == ["Reputation", "Inspiration", "Coordination", "Ingenuity"]
    before = {(t, p): st.stat(t, p) for t in ATTRS + ("research",) for p in range(2)}
    answer(st, "Coordination")
    after = {(t, p): st.stat(t, p) for t in ATTRS + ("research",) for p in range(2)}
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {("coordination", 0)}


@pytest.mark.parametrize("reputation, top_tier", [(0, 1), (2, 2), (4, 3), (5, 4), (6, 4), (7, 5)])
def test_reputation_gives_the_recruitment_level(reputation, top_tier):
    """DS-ATT-02: levels 1, 2, 3, 4, 5 from Reputation 0, 1, 3, 5, 7."""
    st = setup_game(2)
    st.set_stat("reputation", reputation, 1)
    answer(st, "Diver 1")
    assert st.current_player == 1
    assert max(tier(n) for n in offered(st)) == top_tier


@pytest.mark.parametrize("inspiration, effort", [(0, 2), (1, 3), (2, 3), (3, 4), (6, 5), (9, 6)])
def test_inspiration_gives_the_effort_level(inspiration, effort):
    """DS-ATT-03: the Effort is one more than the lower row's level."""
    st = setup_game(2)
    st.set_stat("inspiration", inspiration, 1)
    supply = st.stat("supply", 1)
    answer(st, "Diver 1", "Diver 2")
    to_staging(st)
    assert st.stat("supply", 1) == supply - effort


def test_coordination_gives_the_reassignment_level():
    """DS-ATT-04: with three discs placed, Coordination 1 (level 2) takes
    two back, chosen; Coordination 3 (level 3) all three, unasked."""
    st = setup_game(2)
    for seat, n in ((0, 3), (1, 4)):
        own(st, f"Ecologist {n}", seat=seat, disc=True)
        own(st, f"Pilot {n}", seat=seat, disc=True)
    st.set_stat("coordination", 1, 0)
    st.set_stat("coordination", 3, 1)
    answer(st, "Diver 1", "Diver 2")
    assert st.current_player == 0 and asked(st) == "Reassign"
    answer(st, "Pilot 3", "Ecologist 3")
    assert count(st, "specialists", owner=0, disc=True) == 1
    assert st.piece("specialists", "Team Leader 1")["disc"]
    assert count(st, "specialists", owner=1, disc=True) == 0
    assert offered(st) == ["Activate a Specialist", "Pass"]


def test_ingenuity_gives_the_technology_level():
    """DS-ATT-05: Ingenuity 2 (level 2) reaches two zones and depth 2;
    Ingenuity 3 (level 3) three zones and depth 3."""
    reach = {}
    for ingenuity in (2, 3):
        st = staging_turn()
        zone(st, "Tide Pools", "d1")
        zone(st, "The Lagoon", "e1")
        zone(st, "Twilight Reef", "d2")
        zone(st, "Midnight Plain", "c3")
        zone(st, "Abyssal Plain", "c4")
        st.set_stat("ingenuity", ingenuity, 0)
        answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1")
        reach[ingenuity] = sorted(offered(st))
    assert reach[2] == ["b1", "c2", "d1", "d2", "e1"]
    assert reach[3] == ["b1", "c2", "c3", "d1", "d2", "e1"]


@pytest.mark.parametrize("track", ATTRS)
def test_reaching_the_impact_symbol_gains_an_impact(track):
    """DS-ATT-06: step 10 of every attribute track; step 9 gives none."""
    st = staging_turn()
    st.set_stat(track, 8, 0)
    hold(st, "Sighting 1", "Sighting 2")
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", track.capitalize())
    assert st.stat(track, 0) == 9 and asked(st) != "Place Impact on"
    answer(st, "Spend a Dive token", "Sighting 2", "Its extra", track.capitalize())
    assert st.stat(track, 0) == 10 and asked(st) == "Place Impact on"
    answer(st, "a1")
    assert st.stat("markers", 0) == 19


def test_a_vessel_icon_with_no_vessel_left_gives_nothing():
    """DS-ATT-11: with every Vessel out, the icon on 7 gives nothing; the
    step back from the end to 10 never reaches an icon again."""
    st = staging_turn()
    put(st, "vessels", "Vessel 1-2", owner=0, at="b1")
    put(st, "vessels", "Vessel 1-3", owner=0, at="b1")
    st.set_stat("ingenuity", 6, 0)
    hold(st, "Sighting 1")
    staged = st.stat("staging", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Ingenuity")
    assert st.stat("ingenuity", 0) == 7
    assert st.stat("staging", 0) == staged - 1               # no Sea Star Arrival disc
    assert count(st, "vessels", owner=0, at=space("ocean", "b1")) == 2
    st = staging_turn()
    st.set_stat("ingenuity", 11, 0)
    hold(st, "Sighting 1")
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Ingenuity", "a1")
    assert st.stat("ingenuity", 0) == 10
    assert st.piece("vessels", "Vessel 1-2")["at"] is None


def test_research_beyond_the_top_is_lost_without_impact():
    """DS-ATT-12: a Specimen's 2 Research at 14 reaches 15 only; no Impact."""
    st = staging_turn()
    st.set_stat("research", 14, 0)
    hold(st, "Specimen 1")
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Specimen 1", "Research")
    assert st.stat("research", 0) == 15
    assert st.stat("markers", 0) == 20 and asked(st) != "Place Impact on"


# ---------------------------------------------------------------- the Impact board

def test_the_impact_board_has_entry_hexes_with_rewards():
    """DS-IMP-01: the first marker goes on one of the four entry hexes; d4
    gives a Coordination step."""
    st = staging_turn()
    st.set_stat("reputation", 9, 0)
    hold(st, "Sighting 1")
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Reputation")
    assert sorted(offered(st)) == ["a1", "a4", "d1", "d4"]
    coordination = st.stat("coordination", 0)
    answer(st, "d4")
    assert st.stat("coordination", 0) == coordination + 1
    assert st.piece("impact", "d4")["holder"] == 0 and st.piece("impact", "d4")["markers"] == 1


def test_every_impact_places_a_marker_and_gains_the_hex():
    """DS-IMP-02: an Impact from a Conservation site (a1: a Research step)
    and one from a track (b1, next to it: a Reputation step)."""
    st = staging_turn()
    own(st, "Ecologist 1")
    st.set_stat("research", 2, 0)
    st.set_stat("inspiration", 9, 0)
    hold(st, "Sighting 1")
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "a1")
    assert st.stat("research", 0) == 1 and st.stat("markers", 0) == 19
    rep = st.stat("reputation", 0)
    answer(st, "Spend a Dive token", "Sighting 1", "Its extra", "Inspiration")
    assert "b1" in offered(st)
    answer(st, "b1")
    assert st.stat("reputation", 0) == rep + 1 and st.stat("markers", 0) == 18
    assert [st.piece("impact", h)["holder"] for h in ("a1", "b1")] == [0, 0]


def _scores_with_markers(hexes, flood):
    st = staging_turn()
    for h in hexes:
        st.set_piece("impact", h, "markers", 1)
        st.set_piece("impact", h, "holder", 0)
    st.set_piece("impact", "c4", "markers", flood)
    st.set_stat("flood", flood, 0)
    st.set_stat("markers", 20 - len(hexes) - flood, 0)
    for p in range(2):
        st.set_stat("staging", 0, p)
    st.set_stat("rounds", 1)
    answer(st, "Pass")
    assert st.is_over
    return [st.stat("points", p) for p in range(2)]


def test_hex_colours_score_as_the_legend_shows():
    """DS-IMP-09: blue 1, green 2, gold 4, each ∞ marker 1."""
    base = _scores_with_markers([], 0)
    assert _scores_with_markers(["a1"], 0)[0] - base[0] == 1
    assert _scores_with_markers(["b1"], 0)[0] - base[0] == 2
    assert _scores_with_markers(["a4"], 0)[0] - base[0] == 4
    pts = _scores_with_markers(["a1", "b1", "a4", "d4"], 2)
    assert [a - b for a, b in zip(pts, base)] == [1 + 2 + 4 + 2 + 2, 0]


def test_impact_with_no_marker_left_is_lost():
    """DS-IMP-10"""
    st = staging_turn()
    st.set_stat("markers", 0, 0)
    st.set_stat("reputation", 9, 0)
    hold(st, "Sighting 1")
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Reputation")
    assert st.stat("reputation", 0) == 10
    assert asked(st) != "Place Impact on" and "End the turn" in offered(st)
    assert st.log[-1].text == "no Impact marker is left"
    assert count(st, "impact", markers=0) == 16
