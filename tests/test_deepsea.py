"""Deep Sea scenario tests: each checks one item of
../shared/rulebooks/deepsea.checklist.md (its ID in the docstring) with
every die and draw forced (explicit chance mode).  The designed data they
lean on is in rulesets/deepsea.rules."""

from __future__ import annotations


from rulelang import CHANCE

from deepsea_helpers import (GAME, answer, count, offered, piece_index, put, setup_game, space,
                             to_staging, zone)


def staging_turn(players=2):
    """Round 1's Staging, seat 0 (the Wave) to act."""
    return to_staging(setup_game(players))


# ---------------------------------------------------------------- setup

def test_setup_leaves_one_disc_on_the_leader_one_staged_and_28_in_supply():
    """DS-SET-22"""
    st = setup_game(3)
    for p in range(3):
        assert st.stat("supply", p) == 28 and st.stat("staging", p) == 1
        assert count(st, "specialists", owner=p, disc=True) == 1
        assert st.piece("specialists", f"Team Leader {p + 1}")["side"] == "senior"


def test_the_sea_star_starts_with_four_dive_tokens_and_is_the_launch_zone():
    """DS-SET-08"""
    st = setup_game(2)
    star = st.piece("oceans", "The Sea Star")
    assert star["dive_left"] == 4 and star["at"] == space("ocean", "c1")
    assert st.stat("launch") == space("ocean", "c1")
    assert [st.piece("vessels", f"Vessel {c}-1")["at"] for c in (1, 2)] == [space("ocean", "c1")] * 2


def test_four_anchor_journals_are_displayed_and_three_boxed():
    """DS-SET-10"""
    st = setup_game(2)
    assert count(st, "journals", place="display") == 4
    assert count(st, "journals", place="box") == 3
    for name in GAME.prog.piece_names["journals"]:
        j = st.piece("journals", name)
        assert (j["place"] in ("display", "box")) == bool(j["anchor"])


def test_the_wave_holder_recruits_first():
    """DS-SET-13, DS-RND-04"""
    st = setup_game(3, wave=1)
    assert st.stat("wave") == 1 and st.current_player == 1


# ---------------------------------------------------------------- Preparation

def test_recruitment_offers_only_tiers_up_to_the_level():
    """DS-PRE-03/04: at Reputation 0 (level 1) only tier-1 tiles; at 3 (level 3) tiers up to 3."""
    st = setup_game(2)
    assert offered(st) == ["Navigator 1", "Sonar Technician 1", "Diver 1"]
    st.set_stat("reputation", 3, 1)
    answer(st, "Diver 1")
    assert st.current_player == 1
    tiers = {GAME.prog.piece_attr["specialists"]["tier"][piece_index("specialists", n)]
             for n in offered(st)}
    assert tiers == {1, 2, 3}


def test_a_recruited_specialist_is_junior_and_its_gain_counts_at_once():
    """DS-PRE-05, DS-PRE-07, DS-PRE-08: the Navigator's gain (a Reputation step)."""
    st = setup_game(2)
    answer(st, "Navigator 1")
    nav = st.piece("specialists", "Navigator 1")
    assert nav["owner"] == 0 and nav["side"] == "junior"
    assert st.stat("reputation", 0) == 1
    assert st.piece("specialists", "Navigator 2")["on_top"]


def test_a_duplicate_title_may_be_recruited():
    """DS-PRE-06"""
    st = setup_game(2)
    answer(st, "Diver 1", "Diver 2")
    assert st.piece("specialists", "Diver 2")["owner"] == 1


def test_emptied_tier5_pocket_takes_a_tile_from_the_other():
    """DS-PRE-09: seat 1 takes pocket 1's only tile; a tile of pocket 2
    (which holds three) comes up on pocket 1."""
    st = setup_game(2)                        # tops: Explorer (pocket 1), Conservationist (pocket 2)
    st.set_piece("pockets", "Pocket 1", "under", 0)
    st.set_piece("pockets", "Pocket 2", "under", 2)
    st.set_stat("reputation", 9, 1)
    answer(st, "Diver 1", "Explorer")
    assert st.current_player == CHANCE
    st.apply("draw Ambassador")
    moved = st.piece("specialists", "Ambassador")
    assert moved["pocket"] == piece_index("pockets", "Pocket 1") and moved["on_top"]
    assert st.piece("pockets", "Pocket 2")["under"] == 1
    assert st.piece("specialists", "Publisher")["pocket"] is None


def test_effort_takes_what_the_supply_holds():
    """DS-PRE-10/11"""
    st = setup_game(2)
    st.set_stat("supply", 1, 0)
    st.set_stat("inspiration", 3, 0)          # level 3: Effort 4
    before = st.stat("staging", 0)
    answer(st, "Diver 1", "Diver 2")
    to_staging(st)
    # one disc of the four, and the Team Leader's disc reassigned
    assert st.stat("supply", 0) == 0 and st.stat("staging", 0) == before + 1 + 1


def test_round_one_reassignment_brings_the_leader_disc_back():
    """DS-PRE-16, DS-PRE-14"""
    st = staging_turn()
    assert not st.piece("specialists", "Team Leader 1")["disc"]
    # staging: 1 (arrival) + 2 (Effort at level 1) + 1 reassigned
    assert st.stat("staging", 0) == 4


def test_reassignment_is_limited_by_the_level_and_the_player_chooses():
    """DS-PRE-12/13"""
    st = setup_game(2)
    put(st, "specialists", "Navigator 1", owner=0, side="junior", disc=True, on_top=False)
    put(st, "specialists", "Navigator 2", on_top=True)
    answer(st, "Diver 1", "Diver 2")
    assert st.current_player == 0 and sorted(offered(st)) == ["Navigator 1", "Team Leader 1"]
    assert st.legal_moves()[0].label in ("Navigator 1", "Team Leader 1")
    answer(st, "Navigator 1")
    assert not st.piece("specialists", "Navigator 1")["disc"]
    assert st.piece("specialists", "Team Leader 1")["disc"]      # level 1: one disc only


# ---------------------------------------------------------------- Staging

def test_a_player_without_a_staged_disc_must_pass():
    """DS-STG-05, DS-STG-04, DS-STG-06: seat 1 has no disc: once seat 0
    passes, seat 1 passes without a decision and the round ends."""
    st = staging_turn()
    st.set_stat("staging", 0, 1)
    answer(st, "Pass")
    assert st.round == 2
    passes = [e.player for e in st.log if e.round == 1 and e.kind == "log" and e.text == "passes"]
    assert passes == [1]
    assert not any(e.player == 1 and e.kind == "choose" and e.text.startswith("Staging")
                   for e in st.log if e.round == 1)


def test_activation_puts_a_staged_disc_on_an_empty_circle():
    """DS-STG-07/08/10"""
    st = staging_turn()
    supply = st.stat("supply", 0)
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert st.piece("specialists", "Team Leader 1")["disc"]
    assert st.stat("staging", 0) == 3 and st.stat("supply", 0) == supply
    answer(st, "End the turn")
    answer(st, "Activate a Specialist")
    assert "Team Leader 1" not in offered(st)


def test_a_specialist_without_a_circle_is_never_offered():
    """DS-STG-09"""
    st = staging_turn()
    put(st, "specialists", "Engineer 1", owner=0, side="junior")
    answer(st, "Activate a Specialist")
    assert "Engineer 1" not in offered(st)


def test_a_slash_specialist_gives_one_action_only():
    """DS-STG-15: the Junior Oceanographer's Sonar / Conserve."""
    st = staging_turn()
    put(st, "specialists", "Oceanographer 1", owner=0, side="junior")
    st.set_stat("research", 5, 0)
    answer(st, "Activate a Specialist", "Oceanographer 1")
    assert {"Sonar", "Conserve"} <= set(offered(st))
    answer(st, "Conserve", "The Sea Star")
    assert "Sonar" not in offered(st) and "Conserve" not in offered(st)


def test_actions_without_a_slash_are_any_in_any_order():
    """DS-STG-16/17: the Senior Team Leader's Travel and Dive, Dive first."""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert {"Travel", "Dive"} <= set(offered(st))
    answer(st, "Dive", "The Sea Star")
    assert st.current_player == CHANCE
    st.apply("draw Research 1")
    assert "Travel" in offered(st) and "Dive" not in offered(st)


def test_activating_and_doing_nothing_keeps_the_disc_on_the_specialist():
    """DS-STG-19"""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Navigator 1", "End the turn")
    assert st.piece("specialists", "Navigator 1")["disc"] and st.current_player == 1


def test_sonar_needs_a_second_disc():
    """DS-STG-13/14, DS-SON-01"""
    st = staging_turn()
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    st.set_stat("staging", 1, 0)
    answer(st, "Activate a Specialist", "Sonar Technician 2")
    assert st.stat("staging", 0) == 0 and "Sonar" not in offered(st)


# ---------------------------------------------------------------- Travel

def test_travel_range_and_depth_are_the_technology_level_through_zones_only():
    """DS-TRV-02/03/04/05: at Ingenuity 0 (level 1) one zone, depth 1;
    the gap at d1 is never crossed."""
    st = staging_turn()
    zone(st, "Tide Pools", "e1")
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1")
    assert sorted(offered(st)) == ["b1"]          # c2 is depth 2; e1 is across a gap


def test_only_the_destination_depth_is_limited():
    """DS-TRV-06 (Reading): the Technology level limits the depth of the
    zone moved to: at level 2, the depth-2 zones d2 and c2 are offered and
    the depth-3 c3 is not.  (On a map filled from the surface down a
    shortest path never needs a zone deeper than both its ends, so the
    Reading that a path may pass through deeper zones changes no move.)"""
    st = staging_turn()
    zone(st, "Twilight Reef", "d2")
    zone(st, "Tide Pools", "d1")
    zone(st, "Midnight Plain", "c3")
    st.set_stat("ingenuity", 1, 0)                # level 2
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1")
    assert sorted(offered(st)) == ["b1", "c2", "d1", "d2"]


def test_arrival_bonus_of_the_destination_only():
    """DS-TRV-09/10/12: Coral Gardens gives a Research step on every arrival."""
    st = staging_turn()
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1", "b1")
    assert st.stat("research", 0) == research + 1
    assert st.piece("vessels", "Vessel 1-1")["at"] == space("ocean", "b1")


# ---------------------------------------------------------------- Sonar and Discover

def test_sonar_fills_the_earliest_space_and_space_two_gives_its_reward():
    """DS-SON-03/07: The Sea Star's space 2 gives a Research step."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", sonar_used=1)
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star")
    assert st.piece("oceans", "The Sea Star")["sonar_used"] == 2
    assert st.stat("research", 0) == research + 1


def test_a_zone_with_two_sonar_tracks_lets_the_player_choose():
    """DS-SON-04: Midnight Plain's second track gives a Research step on
    each space; once it is full only the first is left."""
    st = staging_turn()
    zone(st, "The Drop-off", "c2")
    zone(st, "Midnight Plain", "c3")
    put(st, "vessels", "Vessel 1-1", at="c3")
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Midnight Plain")
    assert offered(st) == ["the first", "the second"]
    answer(st, "the second")
    assert st.piece("oceans", "Midnight Plain")["sonar_b_used"] == 1
    assert st.piece("oceans", "Midnight Plain")["sonar_used"] == 0
    assert st.stat("research", 0) == research + 1
    # with the second track full, the first is used without a question
    st = staging_turn()
    zone(st, "The Drop-off", "c2")
    zone(st, "Midnight Plain", "c3")
    put(st, "vessels", "Vessel 1-1", at="c3")
    put(st, "oceans", "Midnight Plain", sonar_b_used=2)
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Midnight Plain")
    assert st.piece("oceans", "Midnight Plain")["sonar_used"] == 1


def test_a_full_sonar_track_cannot_be_used():
    """DS-SON-05"""
    st = staging_turn()
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    for t in ("The Sea Star", "Coral Gardens", "The Drop-off"):
        put(st, "oceans", t, sonar_used=3 if t == "The Sea Star" else 2)
    answer(st, "Activate a Specialist", "Sonar Technician 2")
    assert "Sonar" not in offered(st)


def discover_at_the_sea_star(*draws):
    """Seat 0's Sonar on the Sea Star's first space, then its Discover:
    ``draws`` are (depth answer, board) pairs forced in turn."""
    st = staging_turn()
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star")
    for depth, board in draws:
        answer(st, depth)
        st.apply(f"draw {board}")
    return st


def test_discover_draws_two_keeps_one_and_puts_the_other_at_the_bottom():
    """DS-DSC-01/02/10/11/13, DS-SON-08: space 1 of The Sea Star discovers
    depth 1-2; the kept board is placed and gives its Discovery bonus."""
    st = discover_at_the_sea_star(("the shallower", "Tide Pools"), ("the deeper", "Whale Road"))
    answer(st, "Tide Pools")
    assert st.piece("oceans", "Whale Road")["place"] == "stack"
    assert st.piece("oceans", "Whale Road")["bottom"] == 1
    assert sorted(offered(st)) == ["a1", "d1", "e1"]          # DS-DSC-04
    supply = st.stat("supply", 0)
    answer(st, "a1")
    assert st.piece("oceans", "Tide Pools")["at"] == space("ocean", "a1")
    assert st.stat("supply", 0) == supply - 1                  # its Discovery bonus: a disc
    assert st.piece("oceans", "Tide Pools")["dive_left"] == 3  # DS-DSC-12


def test_a_deeper_board_goes_only_below_a_zone_of_the_depth_above():
    """DS-DSC-05: a depth-2 board goes only on a free space under a depth-1
    zone: b2 (under Coral Gardens), not c2 (taken) nor a2, d2, e2."""
    st = discover_at_the_sea_star(("the deeper", "Whale Road"), ("the deeper", "Twilight Reef"))
    answer(st, "Whale Road")
    assert offered(st) == ["b2"]


def test_a_board_put_back_is_drawn_last():
    """DS-DSC-10: a board on the bottom of its stack is drawn only after the others."""
    st = staging_turn()
    for name in ("Seagrass Meadow", "Tide Pools", "Mangrove Edge", "Kelp Forest"):
        put(st, "oceans", name, bottom=0)
    put(st, "oceans", "The Lagoon", bottom=5)
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star", "the shallower")
    assert "draw The Lagoon" not in [m.label for m in st.legal_moves()]


def test_discover_falls_back_to_the_shallowest_possible_depth():
    """DS-DSC-07: with depths 1 and 2 full, the Sea Star's "1-2" draws from depth 3."""
    st = staging_turn()
    for col in "abcde":
        for row in (1, 2):
            st.set_piece("ocean", f"{col}{row}", "open", True)
            st.set_piece("ocean", f"{col}{row}", "ready", False)
        st.set_piece("ocean", f"{col}3", "ready", True)
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star")
    drawn = [m.label for m in st.legal_moves()]
    assert drawn and all(GAME.prog.piece_attr["oceans"]["depth"][piece_index("oceans", d[5:])] == 3
                         for d in drawn)


# ---------------------------------------------------------------- Dive and tokens

def test_an_empty_dive_site_cannot_be_dived():
    """DS-DIV-02/03"""
    st = staging_turn()
    for t in ("The Sea Star", "Coral Gardens", "The Drop-off"):
        put(st, "oceans", t, dive_left=0)
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert "Dive" not in offered(st)


def test_a_token_gives_research_or_its_extra_never_both():
    """DS-DIV-07/08/09/11: a Current token spent for its Travel gives no Research."""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive", "The Sea Star")
    st.apply("draw Current 1")
    research = st.stat("research", 0)
    answer(st, "Spend a Dive token", "Current 1", "Its extra", "Vessel 1-1", "b1")
    assert st.stat("research", 0) == research + 1          # b1's Arrival bonus only
    assert st.piece("tokens", "Current 1")["place"] == "spent"


def test_at_most_one_token_is_kept_at_the_end_of_a_turn():
    """DS-DIV-15/16: with two tokens held the turn cannot end."""
    st = staging_turn()
    put(st, "tokens", "Echo 1", place="held", holder=0)
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive", "The Sea Star")
    st.apply("draw Research 2")
    assert "End the turn" not in offered(st)
    answer(st, "Spend a Dive token", "Research 2", "Research")
    assert "End the turn" in offered(st)


# ---------------------------------------------------------------- Conserve, Journal, links

def test_conserve_pays_gains_places_then_pays_links():
    """DS-CON-02..06, DS-LNK-02/03: The Sea Star's site (cost 2, Impact) and
    its link to the Journal site held by seat 1 (a Reputation step each)."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", journaled_by=1)
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 3, 0)
    rep0, rep1 = st.stat("reputation", 0), st.stat("reputation", 1)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star")
    assert st.stat("research", 0) == 1
    answer(st, "a1")                         # the site's Impact, before the link
    assert st.stat("reputation", 0) == rep0 + 1 and st.stat("reputation", 1) == rep1 + 1
    assert st.piece("oceans", "The Sea Star")["conserved_by"] == 0


def test_a_link_with_both_ends_one_players_pays_once():
    """DS-LNK-04"""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", journaled_by=0)
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 3, 0)
    rep = st.stat("reputation", 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "a1")
    assert st.stat("reputation", 0) == rep + 1


def test_one_disc_can_complete_two_links():
    """DS-LNK-05: the Conservation disc ends the link to the Journal site and
    the link from the last Sonar space (a Research step)."""
    st = staging_turn()
    put(st, "oceans", "The Sea Star", journaled_by=1, sonar_by=1, sonar_used=3)
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 2, 0)
    research1 = st.stat("research", 1)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "d1")
    assert st.stat("research", 1) == research1 + 1 and st.stat("research", 0) == 1


def test_research_can_be_paid_with_tokens_but_never_below_zero():
    """DS-RES-03/04: with no Research no site can be paid for, and the
    Conserve does nothing; with a Specimen token (2 Research) held, the Sea
    Star's site (cost 2) is paid with the token."""
    st = staging_turn()
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 0, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve")
    assert "Conserve" not in offered(st) and "End the turn" in offered(st)
    assert st.piece("oceans", "The Sea Star")["conserved_by"] is None
    st = staging_turn()
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 0, 0)
    put(st, "tokens", "Specimen 1", place="held", holder=0)
    st.set_stat("token_research", 2, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "Specimen 1", "a1")
    assert st.stat("research", 0) == 1                        # 2 paid, then a1's Research step
    assert st.piece("tokens", "Specimen 1")["place"] == "spent"
    assert st.piece("oceans", "The Sea Star")["conserved_by"] == 0


def test_journal_needs_a_displayed_journal_of_the_sites_field():
    """DS-JRN-03/05/06/08/10: the Sea Star's biology site; the Journal's own
    cost is paid; the display refills from the deck."""
    st = staging_turn()
    for name in ("Tide Tables", "Reef Census", "Sediment Cores", "Water Chemistry"):
        put(st, "journals", name, place="display")
    for name in ("Field Notes", "Currents Atlas", "First Survey"):
        put(st, "journals", name, place="box")
    put(st, "specialists", "Science Writer 1", owner=0, side="junior")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star")
    assert offered(st) == ["Reef Census"]
    answer(st, "Reef Census")
    assert st.stat("research", 0) == 3
    # Instant: a promotion (the Writer); Others: seat 1 gains a Research step
    answer(st, "Science Writer 1")
    assert st.piece("journals", "Reef Census")["holder"] == 0
    assert st.current_player == CHANCE           # the display refills


def test_promotion_flips_to_senior_and_sends_its_disc_to_the_supply():
    """DS-PRO-01/02/04/05"""
    st = staging_turn()
    put(st, "specialists", "Navigator 1", disc=True)
    supply = st.stat("supply", 0)
    put(st, "tokens", "Echo 1", place="held", holder=0)
    st.set_stat("research", 4, 0)
    put(st, "specialists", "Science Writer 1", owner=0, side="junior")
    for name in ("Tide Tables", "Reef Census", "Sediment Cores", "Water Chemistry"):
        put(st, "journals", name, place="display")
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census")
    answer(st, "Navigator 1")
    nav = st.piece("specialists", "Navigator 1")
    assert nav["side"] == "senior" and not nav["disc"]
    assert st.stat("supply", 0) == supply + 1
    assert st.stat("ingenuity", 0) == 1          # its Promotion bar


# ---------------------------------------------------------------- tracks and Impact

def test_stepping_past_the_end_goes_back_to_the_impact_symbol_and_gains_impact():
    """DS-ATT-07/08"""
    st = staging_turn()
    st.set_stat("reputation", 11, 0)
    put(st, "tokens", "Sighting 1", place="held", holder=0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Reputation")
    assert st.stat("reputation", 0) == 10
    assert "a1" in offered(st)                   # placing the Impact
    answer(st, "a1")
    assert st.stat("markers", 0) == 19


def test_the_ingenuity_vessel_icon_launches_a_vessel_with_its_arrival():
    """DS-ATT-09/10, DS-TRV-11"""
    st = staging_turn()
    st.set_stat("ingenuity", 2, 0)
    put(st, "tokens", "Sighting 1", place="held", holder=0)
    staging = st.stat("staging", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Ingenuity")
    assert st.piece("vessels", "Vessel 1-2")["at"] == space("ocean", "c1")
    assert st.stat("staging", 0) == staging - 1 + 1   # the activation disc, then the Sea Star's disc


def test_impact_goes_on_an_entry_hex_or_next_to_a_marker():
    """DS-IMP-03/04/05"""
    st = staging_turn()
    st.set_piece("impact", "b1", "markers", 1)
    st.set_piece("impact", "b1", "holder", 1)
    st.set_stat("reputation", 9, 0)
    put(st, "tokens", "Sighting 1", place="held", holder=0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Reputation")
    # the four entry hexes, and the free hexes touching b1 (seat 1's marker)
    assert sorted(offered(st)) == ["a1", "a4", "b2", "c1", "c2", "d1", "d4"]


def test_the_infinite_hex_takes_any_number_and_each_gains_its_reward():
    """DS-IMP-06/07/08"""
    st = staging_turn()
    st.set_piece("impact", "c4", "markers", 3)
    st.set_piece("impact", "d4", "markers", 1)
    st.set_stat("reputation", 9, 0)
    put(st, "tokens", "Sighting 1", place="held", holder=0)
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", "Reputation", "c4")
    assert st.stat("flood", 0) == 1 and st.stat("research", 0) == research + 1


# ---------------------------------------------------------------- rounds and scoring

def test_the_wave_passes_clockwise_each_round():
    """DS-END-05, DS-RND-04"""
    st = staging_turn(3)
    for p in range(3):
        st.set_stat("staging", 0, p)
    answer(st, "Pass")
    assert st.round == 2 and st.stat("wave") == 1 and st.current_player == 1


def test_solo_lasts_seven_rounds_and_is_cooperative():
    """DS-RND-02, DS-COO-01"""
    st = setup_game(1)
    assert st.stat("rounds") == 7 and st.stat("team")
    assert count(st, "coop_cards", chosen=True) == 3


def _final_points(players, deep):
    """Every seat's points when the game ends at once, with ``deep[p]`` of
    seat p's Vessels at depth 3 and nothing else scoring."""
    st = staging_turn(players)
    zone(st, "Midnight Plain", "c3")
    for p, n in deep.items():
        for k in range(n):
            put(st, "vessels", f"Vessel {p + 1}-{k + 1}", at="c3")
    for p in range(players):
        st.set_stat("staging", 0, p)
    st.set_stat("rounds", 1)
    answer(st, "Pass")
    assert st.is_over and st.over == "final scoring"
    return [st.stat("points", p) for p in range(players)]


def test_leader_bonuses_tie_for_first_gives_no_second():
    """DS-SCO-07: 'Into the Deep' (2 a Vessel, most 6, second 3): two tied
    first get 6 each, the third gets no second bonus."""
    none_deep = _final_points(4, {})
    pts = _final_points(4, {0: 2, 1: 2, 2: 1})
    gained = [a - b for a, b in zip(pts, none_deep)]
    assert gained == [4 + 6, 4 + 6, 2, 0]


def test_leader_bonuses_single_first_and_tied_second():
    """DS-SCO-08/09: one first (6), two tied second (3 each); a seat with
    none gets no bonus."""
    none_deep = _final_points(4, {})
    pts = _final_points(4, {0: 3, 1: 1, 2: 1})
    gained = [a - b for a, b in zip(pts, none_deep)]
    assert gained == [6 + 6, 2 + 3, 2 + 3, 0]
