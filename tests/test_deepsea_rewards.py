"""Deep Sea reward symbols (DS-RWD-…), each gained through a real source
of the designed data, with every draw forced."""

from __future__ import annotations

from rulelang import CHANCE

from deepsea_helpers import answer, offered, put, setup_game, to_staging, zone


def staging_turn(players=2):
    return to_staging(setup_game(players))


def spend_sighting(st, *choice):
    """Seat 0 activates its Navigator and spends a Sighting token (an
    any-attribute step), answering ``choice``."""
    put(st, "tokens", "Sighting 1", place="held", holder=0)
    answer(st, "Activate a Specialist", "Navigator 1", "Spend a Dive token", "Sighting 1",
           "Its extra", *choice)
    return st


def test_a_zone_feature_gives_its_reward():
    """DS-RWD-01: rewards come from many sources (the other tests of this
    file gain them from sites, hexes, Journals, tokens and recruits); here
    Coral Gardens' Arrival bonus, a Research step."""
    st = staging_turn()
    research = st.stat("research", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1", "b1")   # arrival
    assert st.stat("research", 0) == research + 1


def test_each_attribute_symbol_moves_its_own_cube_one_step():
    """DS-RWD-02..05: a Sighting's any-attribute step, to each track in turn."""
    for track, label in [("reputation", "Reputation"), ("inspiration", "Inspiration"),
                         ("coordination", "Coordination"), ("ingenuity", "Ingenuity")]:
        st = staging_turn()
        before = {t: st.stat(t, 0) for t in ("reputation", "inspiration", "coordination", "ingenuity")}
        spend_sighting(st, label)
        after = {t: st.stat(t, 0) for t in before}
        assert after == {t: v + (1 if t == track else 0) for t, v in before.items()}


def test_any_attribute_offers_all_four():
    """DS-RWD-06"""
    st = staging_turn()
    spend_sighting(st)
    assert offered(st) == ["Reputation", "Inspiration", "Coordination", "Ingenuity"]


def test_lowest_attribute_offers_only_the_tied_lowest():
    """DS-RWD-07: the Coordinator's Promotion bar, with Inspiration and
    Ingenuity tied lowest."""
    st = staging_turn()
    for track, v in (("reputation", 3), ("inspiration", 1), ("coordination", 2), ("ingenuity", 1)):
        st.set_stat(track, v, 0)
    put(st, "specialists", "Coordinator 1", owner=0, side="junior")
    put(st, "tokens", "Echo 1", place="held", holder=0)
    # promote through a Journal's Instant benefit
    for name in ("Tide Tables", "Reef Census", "Sediment Cores", "Water Chemistry"):
        put(st, "journals", name, place="display")
    put(st, "specialists", "Science Writer 1", owner=0, side="junior")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census",
           "Coordinator 1")
    assert offered(st) == ["Inspiration", "Ingenuity"]
    answer(st, "Ingenuity")
    assert st.stat("ingenuity", 0) == 2


def test_research_symbol_and_the_research_top():
    """DS-RWD-08: a Research step from an arrival; none past 15 (DS-ATT-12)."""
    st = staging_turn()
    st.set_stat("research", 15, 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1", "b1")
    assert st.stat("research", 0) == 15


def test_impact_symbol_places_a_marker():
    """DS-RWD-09: The Sea Star's Conservation site gives one Impact."""
    st = staging_turn()
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 2, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "a4")
    assert st.stat("markers", 0) == 19
    assert st.piece("impact", "a4")["holder"] == 0


def test_disc_symbol_moves_a_disc_from_the_supply_and_nothing_when_it_is_empty():
    """DS-RWD-10: the d1 hex gives a disc; with an empty supply, nothing."""
    for supply in (5, 0):
        st = staging_turn()
        st.set_stat("supply", supply, 0)
        put(st, "specialists", "Ecologist 1", owner=0, side="junior")
        st.set_stat("research", 2, 0)
        staging = st.stat("staging", 0)
        answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "d1")
        gained = 1 if supply else 0
        assert st.stat("staging", 0) == staging - 2 + gained
        assert st.stat("supply", 0) == supply - gained


def test_promote_symbol_promotes_a_junior():
    """DS-RWD-11: the Reef Census' Instant promotion."""
    st = staging_turn()
    for name in ("Tide Tables", "Reef Census", "Sediment Cores", "Water Chemistry"):
        put(st, "journals", name, place="display")
    put(st, "specialists", "Science Writer 1", owner=0, side="junior")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census")
    assert sorted(offered(st)) == ["Navigator 1", "Science Writer 1"]


def test_sonar_symbol_is_a_sonar_anywhere_with_a_second_disc():
    """DS-RWD-12/14: the Magnetic Anomalies' once-a-round Sonar, in any zone
    with the player's Vessel, costs a disc from the Staging Area."""
    st = staging_turn()
    put(st, "journals", "Magnetic Anomalies", place="owned", holder=0)
    put(st, "vessels", "Vessel 1-2", owner=0, at="b1")
    staging = st.stat("staging", 0)
    answer(st, "Activate a Specialist", "Navigator 1", "Use a Journal", "Magnetic Anomalies",
           "Once this round")
    assert sorted(offered(st)) == ["Coral Gardens", "The Sea Star"]
    answer(st, "Coral Gardens")
    assert st.piece("oceans", "Coral Gardens")["sonar_used"] == 1
    assert st.stat("staging", 0) == staging - 2
    assert st.piece("journals", "Magnetic Anomalies")["turned"]


def test_sonar_here_is_a_sonar_in_the_zone_that_shows_it():
    """DS-RWD-13: Shelf Edge's Arrival bonus is a Sonar there, no choice of zone."""
    st = staging_turn()
    zone(st, "Shelf Edge", "b2")
    zone(st, "Coral Gardens", "b1")
    st.set_stat("ingenuity", 1, 0)          # Technology 2: depth 2
    answer(st, "Activate a Specialist", "Navigator 1", "Travel", "Vessel 1-1", "b2")
    assert st.piece("oceans", "Shelf Edge")["sonar_used"] == 1
    # its space 1 Discovers (depth 3 only on Shelf Edge)
    assert st.current_player == CHANCE
    assert all(m.label.startswith("draw ") for m in st.legal_moves())


def test_a_cost_is_paid_in_full_or_its_gain_is_lost():
    """DS-RWD-15/17: Kelp Forest's site: discard a disc to the supply, then
    one Impact; with no disc left to discard (the site's own disc is not
    one), no Impact."""
    for staging in (2, 1):
        st = staging_turn()
        zone(st, "Kelp Forest", "b1")
        put(st, "vessels", "Vessel 1-1", at="b1")
        put(st, "specialists", "Ecologist 1", owner=0, side="junior")
        st.set_stat("staging", staging + 1, 0)
        st.set_stat("research", 2, 0)
        supply = st.stat("supply", 0)
        answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "Kelp Forest")
        if staging == 2:         # one disc for the site, one paid: Impact
            assert "a1" in offered(st)
            answer(st, "a1")
            assert st.stat("supply", 0) == supply + 1 and st.stat("markers", 0) == 19
        else:                    # the site's disc was the last: no Impact
            assert st.stat("markers", 0) == 20 and st.stat("supply", 0) == supply


def test_spend_two_research_then_promote():
    """DS-RWD-16/17: Whale Road's site: 2 Research spent, then a promotion."""
    st = staging_turn()
    zone(st, "Whale Road", "b1")
    put(st, "vessels", "Vessel 1-1", at="b1")
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 3, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "Whale Road")
    assert st.stat("research", 0) == 0      # the site's 1, then 2 for the promotion
    assert sorted(offered(st)) == ["Ecologist 1", "Navigator 1"]


def test_a_symbol_shown_twice_is_gained_twice():
    """DS-RWD-18: the Engineer's recruit gains are two Ingenuity steps."""
    st = setup_game(2)
    st.set_stat("reputation", 3, 1)
    answer(st, "Diver 1", "Engineer 1")
    assert st.stat("ingenuity", 1) == 2
