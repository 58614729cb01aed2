"""Deep Sea scenario tests for components, setup, the Specialist tray,
the round, final scoring and co-op play: each checks items of
../shared/rulebooks/deepsea.checklist.md (their IDs in the docstring)
with every die and draw forced (explicit chance mode).  The designed data
they lean on is in rulesets/deepsea.rules."""

from __future__ import annotations

import re

import pytest
import rulelang
from rulelang import CHANCE

from deepsea_helpers import (GAME, PROG, answer, count, offered, piece_index, put, setup_game,
                             space, to_staging, zone)
from helpers import SHIPPED, labels

ATTR = PROG.piece_attr
TRACKS = ("reputation", "inspiration", "coordination", "ingenuity")


def attr(pieces, name, field):
    """A piece's designed (fixed) attribute."""
    return ATTR[pieces][field][piece_index(pieces, name)]


def names(pieces, **where):
    """The pieces of a set whose designed attributes have these values."""
    return [n for n in PROG.piece_names[pieces]
            if all(attr(pieces, n, k) == v for k, v in where.items())]


def staging_turn(players=2, coop=0):
    """Round 1's Staging, seat 0 (the Wave) to act."""
    return to_staging(setup_game(players, coop))


def forced_setup(players=2, coop=0, wave=0, draws=()):
    """Like ``setup_game``, but each chance move named in ``draws`` is
    taken, in order, as soon as it is offered; every one must be used."""
    want = list(draws)
    st = GAME.new_game(players=players, seed=1, chance="explicit", params={"coop": coop})
    while st.current_player == CHANCE:
        moves = labels(st)
        if want and want[0] in moves:
            st.apply(want.pop(0))
        else:
            default_chance(st, wave)
    assert not want, f"never offered: {want}"
    return st


def default_chance(st, wave=0):
    """The setup's default chance move: ``wave`` wins the roll-off (rolls 6,
    everyone else 1), otherwise the first move offered."""
    moves = labels(st)
    if moves[0].startswith("roll") and len(moves) == 6:
        rolled = sum(1 for e in st.log if e.kind == "roll")
        st.apply("roll 6" if rolled == wave else "roll 1")
    else:
        st.apply(moves[0])


def end_now(st):
    """From a Staging decision: every seat out of discs, this round the last;
    the current seat passes and the game ends at once."""
    for p in range(st.players):
        st.set_stat("staging", 0, p)
    st.set_stat("rounds", st.round)
    answer(st, "Pass")
    assert st.is_over
    return st


def pass_until(st, stop=lambda st: False):
    """Play on, taking the first option everywhere and passing in every
    Staging turn, until the game is over or ``stop`` holds at a decision."""
    while not st.is_over:
        if st.current_player == CHANCE:
            st.apply(st.legal_moves()[0])
            continue
        if stop(st):
            return st
        if "Pass" in offered(st):
            answer(st, "Pass")
        else:
            st.apply(st.legal_moves()[0])
    return st


def at_staging(st):
    return offered(st)[:2] == ["Activate a Specialist", "Pass"]


def points(st):
    return [st.stat("points", p) for p in range(st.players)]


# every seat's scoring arrangements, on the boards of a base map
DEEP = "c3"
SITES = ["The Sea Star", "Coral Gardens", "The Drop-off", "Midnight Plain", "Twilight Reef"]
REGULAR = names("journals", anchor=False)


def base_map(st):
    """Two more zones: Midnight Plain (depth 3) under The Drop-off, Twilight
    Reef under Coral Gardens: five zones in all."""
    zone(st, "Midnight Plain", "c3")
    zone(st, "Twilight Reef", "b2")
    return st


def deep_vessels(st, seat, n):
    for k in range(n):
        put(st, "vessels", f"Vessel {seat + 1}-{k + 1}", at=DEEP)


def journals_owned(st, seat, n, skip=0):
    for name in REGULAR[skip:skip + n]:
        put(st, "journals", name, place="owned", holder=seat)


def conserved(st, seat, n, skip=0):
    for name in SITES[skip:skip + n]:
        put(st, "oceans", name, conserved_by=seat)


def scored(players, arrange):
    """Every seat's final points (competitive) after ``arrange(st)``."""
    st = base_map(staging_turn(players))
    arrange(st)
    end_now(st)
    assert st.over == "final scoring"
    return st


# ================================================================ components

def test_a_game_takes_one_to_four_players():
    """DS-CMP-01"""
    for n in (0, 5):
        with pytest.raises(ValueError):
            GAME.new_game(players=n, seed=1, chance="explicit")
    for n in (1, 2, 3, 4):
        st = setup_game(n)
        assert st.players == n
        assert count(st, "specialists", tier=0, owner=None) == 4 - n


def test_three_modes_competitive_cooperative_and_solo():
    """DS-CMP-02"""
    comp, coop, solo = (staging_turn(2, 0), staging_turn(2, 1), staging_turn(1, 0))
    assert [st.stat("team") for st in (comp, coop, solo)] == [False, True, True]
    assert count(comp, "coop_cards", chosen=True) == 0
    assert count(coop, "coop_cards", chosen=True) == 3 and count(solo, "coop_cards", chosen=True) == 3
    endings = [end_now(st).over for st in (comp, coop, solo)]
    assert endings[0] == "final scoring"
    co_op = {"Guardians of the Deep", "A Lasting Difference", "A Hopeful Start", "The Ocean Still Waits"}
    assert endings[1] in co_op and endings[2] in co_op


def test_thirty_two_ocean_boards_over_five_depths_depth_known_face_down():
    """DS-CMP-03: 32 boards, 7/7/7/6/5 by depth; a stacked board's depth is
    in every seat's view."""
    boards = PROG.piece_names["oceans"]
    assert len(boards) == 32
    assert [len(names("oceans", depth=d)) for d in range(1, 6)] == [7, 7, 7, 6, 5]
    st = setup_game(2)
    seen = {b["name"]: b for b in st.view(1)["pieces"]["oceans"]}
    stacked = [n for n in boards if st.piece("oceans", n)["place"] == "stack"]
    assert len(stacked) == 29
    assert all(seen[n]["depth"] == attr("oceans", n, "depth") for n in stacked)


def test_a_board_in_play_is_a_zone_with_the_common_features():
    """DS-CMP-04: a discovered board becomes a zone on its space: its space
    holds it, its Dive site is filled, and a Vessel may travel there."""
    st = staging_turn()
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star", "the shallower")
    st.apply("draw Tide Pools")
    answer(st, "the shallower")
    st.apply("draw The Lagoon")
    answer(st, "Tide Pools", "d1", "End the turn")
    pools = st.piece("oceans", "Tide Pools")
    assert pools["place"] == "zone" and pools["at"] == space("ocean", "d1")
    assert st.piece("ocean", "d1")["tile"] == piece_index("oceans", "Tide Pools")
    assert pools["dive_left"] == attr("oceans", "Tide Pools", "dive") == 3
    answer(st, "Pass")                                       # seat 1
    answer(st, "Activate a Specialist", "Team Leader 1", "Travel", "Vessel 1-1")
    assert "d1" in offered(st)


def test_four_player_mats_each_with_its_own_tracks():
    """DS-CMP-05, DS-CMP-16: one mat per seat, five cubes each (four
    attribute tracks and Research), moved only by their owner's gains."""
    st = setup_game(4)
    for p in range(4):
        stats = st.view(p)["players"][p]["stats"]
        assert all(stats[t] == 0 for t in TRACKS + ("research",))
    answer(st, "Navigator 1")                  # seat 0 gains a Reputation step
    assert [st.stat("reputation", p) for p in range(4)] == [1, 0, 0, 0]


def test_thirty_dive_tokens_and_a_dive_may_find_any_of_them():
    """DS-CMP-06: 30 tokens (designed: six kinds); the first Dive is drawn
    from all 30; the token's Research value is the designed one."""
    tokens = PROG.piece_names["tokens"]
    assert len(tokens) == 30
    kinds = {}
    for n in tokens:
        kinds.setdefault(n.rsplit(" ", 1)[0], set()).add((attr("tokens", n, "research"), attr("tokens", n, "extra")))
    assert kinds == {"Research": {(3, None)}, "Current": {(1, "travel")}, "Echo": {(1, "sonar")},
                     "Lantern Fish": {(1, "disc")}, "Specimen": {(2, "research_up")},
                     "Sighting": {(1, "any_up")}}
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive", "The Sea Star")
    assert sorted(m.label for m in st.legal_moves()) == sorted(f"draw {n}" for n in tokens)
    st.apply("draw Specimen 3")
    assert st.stat("token_research", 0) == 2


def test_forty_six_specialists_and_four_team_leaders():
    """DS-CMP-07"""
    tiles = PROG.piece_names["specialists"]
    assert len(names("specialists", tier=0)) == 4 and len(tiles) - 4 == 46
    st = setup_game(4)
    assert count(st, "specialists", owner=None) == 46
    assert all(st.piece("specialists", f"Team Leader {p + 1}")["owner"] == p for p in range(4))


def test_sixteen_kinds_of_specialist():
    """DS-CMP-08: designed split: 4 tiles for each tier-1 and tier-2 title,
    3 for each tier-3 and tier-4 title, 1 for each tier-5 title."""
    split = {}
    for n in PROG.piece_names["specialists"]:
        if attr("specialists", n, "tier") >= 1:
            key = (attr("specialists", n, "title"), attr("specialists", n, "tier"))
            split[key] = split.get(key, 0) + 1
    assert len(split) == 16
    per_tier = {t: sorted(v for (_, tier), v in split.items() if tier == t) for t in range(1, 6)}
    assert per_tier == {1: [4, 4, 4], 2: [4, 4, 4], 3: [3, 3, 3], 4: [3, 3, 3], 5: [1, 1, 1, 1]}


def test_every_specialist_has_a_junior_and_a_senior_side():
    """DS-CMP-09: the Navigator's Junior side offers Travel only, its Senior
    side Travel and Dive."""
    st = staging_turn()                        # seat 0 recruited Navigator 1
    assert st.piece("specialists", "Navigator 1")["side"] == "junior"
    answer(st, "Activate a Specialist", "Navigator 1")
    assert "Travel" in offered(st) and "Dive" not in offered(st)
    st = staging_turn()
    put(st, "specialists", "Navigator 1", side="senior")
    answer(st, "Activate a Specialist", "Navigator 1")
    assert {"Travel", "Dive"} <= set(offered(st))


def test_team_leaders_are_the_starting_tiles_alike_and_senior():
    """DS-CMP-10: four alike Team Leaders (only their colour differs), each
    a seat's first tile, Senior side up, with its Senior actions."""
    leaders = names("specialists", tier=0)
    fields = [f for f in ATTR["specialists"] if f != "colour"]
    assert len({tuple(attr("specialists", n, f) for f in fields) for n in leaders}) == 1
    st = setup_game(4)
    for p in range(4):
        tl = st.piece("specialists", f"Team Leader {p + 1}")
        assert tl["owner"] == p and tl["side"] == "senior"
        assert count(st, "specialists", owner=p) == 1
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1")
    assert {"Travel", "Dive"} <= set(offered(st))


def test_six_double_sided_coop_cards():
    """DS-CMP-12: six cards, each with a goal on either side; a d2 of 2
    lays a card out back up."""
    cards = PROG.piece_names["coop_cards"]
    assert len(cards) == 6
    assert all(attr("coop_cards", c, "front_kind") and attr("coop_cards", c, "back_kind") for c in cards)
    st = forced_setup(2, coop=1, draws=["draw Fleet Card", "roll 2", "draw Lab Card", "roll 1",
                                        "draw Survey Card", "roll 2"])
    assert [st.piece("coop_cards", c)["face"] for c in ("Fleet Card", "Lab Card", "Survey Card")] == \
        ["back", "front", "back"]


def test_twenty_three_journals_and_seven_anchor_journals():
    """DS-CMP-13: every card has a Field, a Research cost and an Instant
    benefit; after setup 23 regular cards wait in the deck."""
    assert len(names("journals", anchor=True)) == 7 and len(names("journals", anchor=False)) == 23
    for j in PROG.piece_names["journals"]:
        assert attr("journals", j, "field1") in ("biology", "chemistry", "geology", "physics")
        assert attr("journals", j, "cost") >= 1 and attr("journals", j, "instant") is not None
    st = setup_game(2)
    assert count(st, "journals", place="deck") == 23
    assert all(st.piece("journals", j)["place"] == "deck" for j in REGULAR)


def test_one_wave_marker_and_the_score_pad():
    """DS-CMP-14: the Wave is one marker, held by one seat at a time; the
    score pad is the result's scores."""
    st = staging_turn(3)
    assert st.stat("wave") == 0
    for p in range(3):
        st.set_stat("staging", 0, p)
    answer(st, "Pass")
    assert st.stat("wave") == 1                # moved on, not copied
    st = staging_turn(2)
    st.set_stat("reputation", 4, 0)
    end_now(st)
    assert st.result().scores == tuple(points(st)) == (4, 0)


def test_thirty_discs_per_player():
    """DS-CMP-15: in a 4-player game every seat's discs add up to 30
    (supply, Staging Area, sites, Specialists), also after a Sonar."""
    st = staging_turn(4)
    put(st, "oceans", "The Sea Star", sonar_used=1)
    put(st, "specialists", "Sonar Technician 4", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 4", "Sonar", "The Sea Star", "End the turn")
    for p in range(4):
        on_tiles = count(st, "specialists", owner=p, disc=True)
        total = st.stat("supply", p) + st.stat("staging", p) + st.stat("site_discs", p) + on_tiles
        assert total == 30
    assert st.stat("site_discs", 0) == 1


def test_twenty_impact_markers_per_player():
    """DS-CMP-17: every seat starts with 20; an Impact takes one of them."""
    st = staging_turn(4)
    assert [st.stat("markers", p) for p in range(4)] == [20] * 4
    put(st, "specialists", "Ecologist 1", owner=0, side="junior")
    st.set_stat("research", 2, 0)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "a1")
    assert [st.stat("markers", p) for p in range(4)] == [19, 20, 20, 20]
    assert st.piece("impact", "a1")["holder"] == 0


def test_twelve_vessels_three_per_colour():
    """DS-CMP-18"""
    vessels = PROG.piece_names["vessels"]
    assert len(vessels) == 12
    assert sorted(attr("vessels", v, "colour") for v in vessels) == sorted([1, 2, 3, 4] * 3)
    st = setup_game(4)
    for p in range(4):
        assert count(st, "vessels", owner=p) == 3
        assert all(st.piece("vessels", v)["owner"] == p for v in vessels if attr("vessels", v, "colour") == p + 1)


# ================================================================ setup

def test_mission_one_is_laid_out():
    """DS-SET-01: the one scenario is Mission 1 (no parameter chooses
    another); its Impact board is laid out empty, with its four entry hexes."""
    assert set(GAME.params) == {"coop"}
    st = setup_game(2)
    hexes = PROG.piece_names["impact"]
    assert len(hexes) == 16
    assert all(st.piece("impact", h)["markers"] == 0 for h in hexes)
    assert sorted(h for h in hexes if st.piece("impact", h)["entry"]) == ["a1", "a4", "d1", "d4"]


def test_mission_one_starts_with_three_boards_in_its_layout():
    """DS-SET-02 (designed): The Sea Star on c1, Coral Gardens on b1, The
    Drop-off on c2; no other space is open."""
    st = setup_game(2)
    layout = {n: PROG.piece_names["ocean"][st.piece("oceans", n)["at"]]
              for n in PROG.piece_names["oceans"] if st.piece("oceans", n)["place"] == "zone"}
    assert layout == {"The Sea Star": "c1", "Coral Gardens": "b1", "The Drop-off": "c2"}
    assert sorted(s for s in PROG.piece_names["ocean"] if st.piece("ocean", s)["open"]) == ["b1", "c1", "c2"]


def test_the_grid_is_five_columns_wide():
    """DS-SET-03 (designed): columns a-e; every depth-1 space may take a
    board, deeper spaces only under a zone."""
    spaces = PROG.piece_names["ocean"]
    assert sorted({s[0] for s in spaces}) == ["a", "b", "c", "d", "e"]
    st = setup_game(2)
    ready = sorted(s for s in spaces if st.piece("ocean", s)["ready"])
    assert ready == ["a1", "b2", "c3", "d1", "e1"]


def test_the_grid_is_five_depths_deep():
    """DS-SET-04: a depth-5 board is discovered onto c5 and nothing opens
    below it: no sixth row."""
    spaces = PROG.piece_names["ocean"]
    assert sorted({int(s[1:]) for s in spaces}) == [1, 2, 3, 4, 5]
    st = staging_turn()
    zone(st, "Midnight Plain", "c3")
    zone(st, "Abyssal Plain", "c4")
    put(st, "vessels", "Vessel 1-1", at="c4")
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "Abyssal Plain")
    depth5 = names("oceans", depth=5)
    assert sorted(labels(st)) == sorted(f"draw {n}" for n in depth5)
    st.apply("draw The Abyss")
    st.apply("draw Hadal Trench")
    answer(st, "The Abyss")
    assert offered(st) == ["c5"]
    ready_before = {s for s in spaces if st.piece("ocean", s)["ready"] and not st.piece("ocean", s)["open"]}
    answer(st, "c5")
    assert st.piece("oceans", "The Abyss")["at"] == space("ocean", "c5")
    ready_after = {s for s in spaces if st.piece("ocean", s)["ready"] and not st.piece("ocean", s)["open"]}
    assert ready_after == ready_before - {"c5"}


def test_the_other_boards_form_five_stacks_by_depth():
    """DS-SET-05: 29 boards stacked, 5/6/7/6/5 by depth; a draw from depth 1
    may be any of the depth-1 stack and nothing else."""
    st = staging_turn()
    stacked = [n for n in PROG.piece_names["oceans"] if st.piece("oceans", n)["place"] == "stack"]
    assert [sum(1 for n in stacked if attr("oceans", n, "depth") == d) for d in range(1, 6)] == [5, 6, 7, 6, 5]
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star", "the shallower")
    assert sorted(m[5:] for m in labels(st)) == sorted(
        ["Seagrass Meadow", "Tide Pools", "Mangrove Edge", "Kelp Forest", "The Lagoon"])
    st.apply("draw Mangrove Edge")
    answer(st, "the deeper")
    assert sorted(m[5:] for m in labels(st)) == sorted(n for n in stacked if attr("oceans", n, "depth") == 2)


def test_all_dive_tokens_form_one_face_down_supply():
    """DS-SET-06: at setup no token is revealed or held; those not on a
    site are in the supply."""
    st = setup_game(2)
    assert count(st, "tokens", place="facedown", holder=None) == 30
    on_sites = sum(st.piece("oceans", n)["dive_left"] for n in PROG.piece_names["oceans"])
    assert st.stat("pool_free") + on_sites == 30 and st.stat("pool_free") == 21


def test_every_dive_site_in_play_gets_its_tokens():
    """DS-SET-07 (designed counts): the setup zones get 4, 2 and 3 tokens;
    a board without a Dive site (Mangrove Edge) gets none."""
    st = staging_turn()
    for n in ("The Sea Star", "Coral Gardens", "The Drop-off"):
        assert st.piece("oceans", n)["dive_left"] == attr("oceans", n, "dive")
    assert [st.piece("oceans", n)["dive_left"] for n in ("The Sea Star", "Coral Gardens", "The Drop-off")] == [4, 2, 3]
    pool = st.stat("pool_free")
    put(st, "specialists", "Sonar Technician 2", owner=0, side="junior")
    answer(st, "Activate a Specialist", "Sonar Technician 2", "Sonar", "The Sea Star", "the shallower")
    st.apply("draw Mangrove Edge")
    answer(st, "the shallower")
    st.apply("draw Tide Pools")
    answer(st, "Mangrove Edge", "a1")
    assert st.piece("oceans", "Mangrove Edge")["dive_left"] == 0 and st.stat("pool_free") == pool


def test_anchor_journals_are_a_deck_of_their_own():
    """DS-SET-09: the display is drawn from the seven Anchor Journals only;
    the regular cards stay in their own deck."""
    st = GAME.new_game(players=2, seed=1, chance="explicit", params={"coop": 0})
    first = labels(st)
    assert sorted(first) == sorted(f"draw {n}" for n in names("journals", anchor=True))
    st = forced_setup(2, draws=["draw First Survey", "draw Field Notes", "draw Currents Atlas",
                                "draw Water Chemistry"])
    assert sorted(j for j in PROG.piece_names["journals"] if st.piece("journals", j)["place"] == "display") == \
        ["Currents Atlas", "Field Notes", "First Survey", "Water Chemistry"]


def test_the_regular_deck_refills_the_display_face_down():
    """DS-SET-11: once a Journal is taken, the card that replaces it is
    drawn unseen from the 23 regular Journals (never a boxed Anchor)."""
    st = staging_turn()
    put(st, "specialists", "Science Writer 1", owner=0, side="junior")
    st.set_stat("research", 4, 0)
    answer(st, "Activate a Specialist", "Science Writer 1", "Journal", "The Sea Star", "Reef Census",
           "Science Writer 1")
    assert st.current_player == CHANCE
    assert sorted(labels(st)) == sorted(f"draw {n}" for n in REGULAR)
    st.apply("draw Ocean Futures")
    assert st.piece("journals", "Ocean Futures")["place"] == "display"
    assert count(st, "journals", place="display") == 4 and count(st, "journals", place="deck") == 22


def test_only_the_tier5_specialists_are_shuffled_at_setup():
    """DS-SET-12: setup draws four Anchor Journals and a tier-5 tile for the
    top of each pocket, nothing else; the tier-1 to 4 stacks stand in their
    fixed order."""
    st = setup_game(2)
    picked = [e.text for e in st.log if e.kind == "pick"]
    tier5 = names("specialists", tier=5)
    tops = [t[6:-10] for t in picked[4:]]
    assert len(tops) == 2 and len(set(tops)) == 2 and set(tops) <= set(tier5)
    assert all(t[6:-10] in names("journals", anchor=True) for t in picked[:4]) and len(picked) == 6
    for n in PROG.piece_names["specialists"]:
        if 1 <= attr("specialists", n, "tier") <= 4:
            assert st.piece("specialists", n)["on_top"] == (attr("specialists", n, "number") == 1)


def test_each_player_takes_the_components_of_a_colour():
    """DS-SET-14: in a 2-player game seats 0 and 1 take colours 1 and 2;
    colours 3 and 4 stay in the box."""
    st = setup_game(2)
    for p in range(2):
        assert st.piece("specialists", f"Team Leader {p + 1}")["owner"] == p
        assert all(st.piece("vessels", f"Vessel {p + 1}-{k}")["owner"] == p for k in (1, 2, 3))
        assert st.stat("markers", p) == 20
        assert st.stat("supply", p) + st.stat("staging", p) + count(st, "specialists", owner=p, disc=True) == 30
    assert count(st, "vessels", owner=None) == 6
    assert st.piece("specialists", "Team Leader 3")["owner"] is None


def test_track_cubes_start_on_zero():
    """DS-SET-15: at the first decision every track of every seat is on 0."""
    st = setup_game(3)
    for p in range(3):
        assert [st.stat(t, p) for t in TRACKS + ("research",)] == [0, 0, 0, 0, 0]


def test_the_team_leader_starts_with_a_disc_on_its_circle():
    """DS-SET-16: before round 1's Reassignment the Team Leader holds the
    seat's one disc in play on a tile, so it cannot be activated yet."""
    st = setup_game(2)
    for p in range(2):
        tl = st.piece("specialists", f"Team Leader {p + 1}")
        assert tl["disc"] and tl["circle"]
        assert count(st, "specialists", disc=True, owner=p) == 1


def test_discs_in_the_supply_cannot_be_used():
    """DS-SET-17: with 28 discs in the supply but none in the Staging Area,
    seat 1 passes at once and its supply is untouched."""
    st = staging_turn()
    st.set_stat("staging", 0, 1)
    supply = st.stat("supply", 1)
    answer(st, "Activate a Specialist", "Team Leader 1", "End the turn")
    passes = [e.player for e in st.log if e.kind == "log" and e.text == "passes"]
    assert passes == [1] and st.current_player == 0
    assert st.stat("supply", 1) == supply


def test_impact_markers_are_each_players_own_supply():
    """DS-SET-18: an Impact placed by seat 1 comes from seat 1's markers."""
    st = staging_turn()
    answer(st, "Pass")
    put(st, "specialists", "Ecologist 1", owner=1, side="junior")
    st.set_stat("research", 2, 1)
    answer(st, "Activate a Specialist", "Ecologist 1", "Conserve", "The Sea Star", "d1")
    assert (st.stat("markers", 0), st.stat("markers", 1)) == (20, 19)
    assert st.piece("impact", "d1")["holder"] == 1 and st.piece("impact", "d1")["markers"] == 1


def test_each_player_launches_one_vessel_with_its_arrival_bonus():
    """DS-SET-19: one Vessel each at the launch zone, logged, with the Sea
    Star's Arrival disc."""
    st = setup_game(3)
    for p in range(3):
        assert st.piece("vessels", f"Vessel {p + 1}-1")["at"] == st.stat("launch")
        assert st.stat("staging", p) == 1 and st.stat("supply", p) == 28
    launched = [e.text for e in st.log if e.kind == "log" and "launched" in e.text]
    assert launched == [f"Vessel {p}-1 is launched at c1" for p in (1, 2, 3)]


def test_the_other_two_vessels_wait_by_the_mat():
    """DS-SET-20: Vessels 2 and 3 are off the board and cannot travel."""
    st = staging_turn()
    assert [st.piece("vessels", f"Vessel 1-{k}")["at"] for k in (2, 3)] == [None, None]
    answer(st, "Activate a Specialist", "Team Leader 1", "Travel")
    assert offered(st) == ["Vessel 1-1"]


def test_mission_one_launches_at_the_sea_star_for_a_disc():
    """DS-SET-21: the launch zone is The Sea Star; its Arrival bonus moves a
    disc from the supply to the Staging Area (at setup and on a later launch)."""
    st = staging_turn()
    assert st.stat("launch") == st.piece("oceans", "The Sea Star")["at"]
    assert attr("oceans", "The Sea Star", "arrival") == "disc"
    st.set_stat("ingenuity", 2, 0)
    put(st, "tokens", "Sighting 1", place="held", holder=0)
    answer(st, "Activate a Specialist", "Navigator 1")
    supply, staging = st.stat("supply", 0), st.stat("staging", 0)
    answer(st, "Spend a Dive token", "Sighting 1", "Its extra", "Ingenuity")
    assert st.piece("vessels", "Vessel 1-2")["at"] == space("ocean", "c1")
    assert (st.stat("supply", 0), st.stat("staging", 0)) == (supply - 1, staging + 1)


def test_setup_zones_give_no_discovery_bonus():
    """DS-SET-23 (Reading): the three setup boards print no Discovery bonus,
    and with one printed on The Drop-off (a copy of the ruleset) setup still
    gives none."""
    for n in ("The Sea Star", "Coral Gardens", "The Drop-off"):
        assert attr("oceans", n, "discovery") is None
    text = SHIPPED["deepsea.rules"].read_text()
    line = re.search(r'^\s*"The Drop-off":.*$', text, re.M).group(0)
    assert "discovery none" in line
    game = rulelang.loads(text.replace(line, line.replace("discovery none", "discovery reputation_up")),
                          "deepsea_copy.rules")
    st = game.new_game(players=2, seed=1, chance="explicit", params={"coop": 0})
    while st.current_player == CHANCE:
        default_chance(st)
    assert [st.stat("reputation", p) for p in range(2)] == [0, 0]
    assert game.prog.piece_attr["oceans"]["discovery"][piece_index("oceans", "The Drop-off")] == "reputation_up"


# ================================================================ the Specialist tray

def test_the_tray_lies_junior_side_up():
    """DS-TRY-01: every tier-1 to 5 tile starts unowned and Junior side up."""
    st = setup_game(2)
    for n in PROG.piece_names["specialists"]:
        if attr("specialists", n, "tier") >= 1:
            s = st.piece("specialists", n)
            assert s["side"] == "junior" and s["owner"] is None


def test_tiers_one_to_four_are_stacked_by_title():
    """DS-TRY-02: one tile on top per title; taking it brings up the next
    of the same title."""
    st = setup_game(2)
    titles = {attr("specialists", n, "title") for n in PROG.piece_names["specialists"]
              if 1 <= attr("specialists", n, "tier") <= 4}
    assert len(titles) == 12
    for t in titles:
        assert count(st, "specialists", title=t, on_top=True) == 1
    answer(st, "Diver 1")
    assert offered(st) == ["Navigator 1", "Sonar Technician 1", "Diver 2"]


def test_three_tier1_stacks_in_the_first_column():
    """DS-TRY-03: at Recruitment level 1 exactly the three tier-1 stacks are offered."""
    st = setup_game(2)
    assert len({attr("specialists", n, "title") for n in names("specialists", tier=1)}) == 3
    assert sorted(offered(st)) == ["Diver 1", "Navigator 1", "Sonar Technician 1"]


def test_tiers_two_to_four_fill_the_next_columns():
    """DS-TRY-04 (designed): three titles in each of tiers 2, 3 and 4 (12,
    9 and 9 tiles); at level 4 the twelve stack tops of tiers 1-4 are offered."""
    assert [len(names("specialists", tier=t)) for t in (2, 3, 4)] == [12, 9, 9]
    st = setup_game(2)
    st.set_stat("reputation", 6, 1)           # level 4
    answer(st, "Diver 1")
    tiers = [attr("specialists", n, "tier") for n in offered(st)]
    assert sorted(tiers) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]


def test_tier5_tiles_are_shuffled_and_dealt_evenly_into_two_pockets():
    """DS-TRY-05 (designed: two pockets): the four tiles dealt two and two;
    the forced draws Ambassador and Publisher are the pockets' tops, and
    each pocket holds one unseen tile under its top."""
    st = forced_setup(2, draws=["draw Ambassador", "draw Publisher"])
    where = {n: st.piece("specialists", n)["pocket"] for n in names("specialists", tier=5)}
    assert where == {"Ambassador": 0, "Publisher": 1, "Explorer": None, "Conservationist": None}
    assert [st.piece("pockets", p)["under"] for p in ("Pocket 1", "Pocket 2")] == [1, 1]
    assert all(st.piece("specialists", n)["side"] == "junior" for n in where)


def test_only_the_top_tile_of_a_pocket_may_be_recruited():
    """DS-TRY-06 (Reading): at level 5 only the two pocket tops are offered;
    once one is taken the tile under it is."""
    st = setup_game(3)                          # the pockets' tops: Explorer, Conservationist
    st.set_stat("reputation", 9, 1)
    st.set_stat("reputation", 9, 2)
    answer(st, "Diver 1")
    tier5 = [n for n in offered(st) if attr("specialists", n, "tier") == 5]
    assert sorted(tier5) == ["Conservationist", "Explorer"]
    answer(st, "Explorer")
    assert st.current_player == CHANCE and labels(st) == ["draw Publisher", "draw Ambassador"]
    st.apply("draw Publisher")                  # the tile under Explorer comes up
    tier5 = [n for n in offered(st) if attr("specialists", n, "tier") == 5]
    assert sorted(tier5) == ["Conservationist", "Publisher"]


# ================================================================ rounds

def test_competitive_and_coop_games_last_six_rounds():
    """DS-RND-01"""
    for coop, endings in ((0, {"final scoring"}),
                          (1, {"Guardians of the Deep", "A Lasting Difference", "A Hopeful Start",
                               "The Ocean Still Waits"})):
        st = pass_until(setup_game(2, coop))
        assert st.over in endings
        played = {e.round for e in st.log if e.kind == "choose"}
        assert played == {1, 2, 3, 4, 5, 6}


def test_preparation_comes_before_staging_every_round():
    """DS-RND-03"""
    st = pass_until(setup_game(2))
    for r in range(1, 7):
        entries = [e for e in st.log if e.round == r]
        recruit = [i for i, e in enumerate(entries) if e.kind == "choose" and e.text.startswith("Recruit")]
        staging = [i for i, e in enumerate(entries) if e.kind == "phase" or e.text.startswith("Staging")]
        assert len(recruit) == 2 and staging and max(recruit) < min(staging)


def test_preparation_is_recruitment_then_effort_then_reassignment():
    """DS-RND-05: the Science Writer's Inspiration step (recruited) raises
    this round's Effort to 3, and that Effort is already in the Staging Area
    when Reassignment asks which disc to take back."""
    st = setup_game(2)
    st.set_stat("reputation", 1, 1)           # level 2
    put(st, "specialists", "Navigator 4", owner=1, side="junior", disc=True)
    st.set_stat("supply", 27, 1)
    answer(st, "Diver 1", "Science Writer 1")
    assert st.current_player == 1 and sorted(offered(st)) == ["Navigator 4", "Team Leader 2"]
    assert st.stat("staging", 1) == 1 + 3
    answer(st, "Navigator 4")
    assert st.stat("staging", 1) == 5 and st.piece("specialists", "Team Leader 2")["disc"]


def test_preparation_goes_step_by_step_for_all_players():
    """DS-PRE-01 (Reading: each step by every player in turn order from the
    Wave before the next step)."""
    st = setup_game(2, wave=1)
    assert st.current_player == 1
    for p, tile in ((0, "Navigator 3"), (1, "Navigator 4")):
        put(st, "specialists", tile, owner=p, side="junior", disc=True)
        st.set_stat("supply", 27, p)
    answer(st, "Diver 1")
    assert st.current_player == 0 and st.stat("staging", 1) == 1     # seat 1's Effort waits
    answer(st, "Diver 2")
    assert st.current_player == 1 and "Navigator 4" in offered(st)   # Reassignment, Wave first
    assert (st.stat("staging", 0), st.stat("staging", 1)) == (3, 3)  # both Efforts done
    answer(st, "Navigator 4")
    assert st.current_player == 0 and "Navigator 3" in offered(st)


def test_every_player_must_recruit_one_and_with_none_left_recruits_nothing():
    """DS-PRE-02 (Reading): seat 0 is offered no way to skip; seat 1, with
    no tier-1 tile left, recruits nothing."""
    st = setup_game(2)
    assert offered(st) == ["Navigator 1", "Sonar Technician 1", "Diver 1"]
    for n in names("specialists", tier=1):
        if n != "Diver 1":
            put(st, "specialists", n, owner=0, side="junior", on_top=False)
    answer(st, "Diver 1")
    assert count(st, "specialists", owner=1) == 1
    assert any(e.player == 1 and e.text == "no Specialist can be recruited" for e in st.log)
    assert st.piece("specialists", "Diver 1")["owner"] == 0


def test_reassignment_never_takes_discs_from_sites():
    """DS-PRE-15 (Reading): a Sonar disc placed in round 1 stays on its
    track in round 2; only the Specialist's disc comes back."""
    st = setup_game(2)
    answer(st, "Sonar Technician 1")
    to_staging(st)
    put(st, "oceans", "The Sea Star", sonar_used=1)
    answer(st, "Activate a Specialist", "Sonar Technician 1", "Sonar", "The Sea Star", "End the turn")
    assert st.stat("staging", 0) == 2 and st.stat("site_discs", 0) == 1
    answer(st, "Pass", "Pass")
    pass_until(st, lambda s: s.round == 2 and at_staging(s))
    assert st.round == 2
    assert st.piece("oceans", "The Sea Star")["sonar_used"] == 2 and st.stat("site_discs", 0) == 1
    assert not st.piece("specialists", "Sonar Technician 1")["disc"]
    assert st.stat("staging", 0) == 2 + 2 + 1          # Effort 2, the Sonar Technician's disc


# ================================================================ end of the round

def test_the_round_ends_once_every_player_has_passed():
    """DS-END-01"""
    st = staging_turn()
    answer(st, "Pass")
    assert st.round == 1 and st.current_player == 1
    answer(st, "Activate a Specialist", "Team Leader 2", "End the turn")
    assert st.round == 1 and st.current_player == 1        # seat 0 is out
    answer(st, "Pass")
    assert st.round == 2


def test_after_round_six_the_game_ends_without_a_reset():
    """DS-END-02: a Journal turned in round 6 stays turned, the Wave stays,
    no round 7 is played."""
    st = pass_until(setup_game(2), lambda s: s.round == 6 and at_staging(s))
    wave = st.stat("wave")
    put(st, "journals", "Reef Census", place="owned", holder=0, turned=True)
    pass_until(st)
    assert st.is_over and st.over == "final scoring"
    assert st.stat("wave") == wave and st.piece("journals", "Reef Census")["turned"]
    assert not any(e.round == 7 and e.kind == "choose" for e in st.log)


def test_each_player_ends_with_seven_specialists_or_eight_solo():
    """DS-END-03"""
    st = pass_until(setup_game(2))
    assert [count(st, "specialists", owner=p) for p in range(2)] == [7, 7]
    st = pass_until(setup_game(1))
    assert st.is_over and count(st, "specialists", owner=0) == 8


def test_spent_journals_are_turned_upright_between_rounds():
    """DS-END-04"""
    st = staging_turn()
    put(st, "journals", "Reef Census", place="owned", holder=0, turned=True)
    answer(st, "Pass", "Pass")
    assert st.round == 2 and not st.piece("journals", "Reef Census")["turned"]


def test_discs_and_a_stored_token_stay_into_the_next_round():
    """DS-END-06 (Reading): at round 2's first decision seat 0's Staging
    Area, its Team Leader's disc and its Dive token are as it left them."""
    st = staging_turn()
    answer(st, "Activate a Specialist", "Team Leader 1", "Dive", "The Sea Star")
    st.apply("draw Specimen 2")
    answer(st, "End the turn", "Pass", "Pass")
    assert st.round == 2 and st.current_player == 1
    assert st.stat("staging", 0) == 3 and st.piece("specialists", "Team Leader 1")["disc"]
    assert st.piece("tokens", "Specimen 2")["holder"] == 0 and st.stat("token_research", 0) == 2
    assert st.piece("oceans", "The Sea Star")["dive_left"] == 3


# ================================================================ final scoring

def test_final_score_adds_tracks_impact_goals_and_tier5_seniors():
    """DS-SCO-01: seat 0 scores 4 (Reputation 4) + 4 (a gold hex) + 7 (a
    Journal, with the first bonus) + 3 (the Senior Publisher)."""
    def arrange(st):
        st.set_stat("reputation", 4, 0)
        st.set_piece("impact", "d1", "markers", 1)
        st.set_piece("impact", "d1", "holder", 0)
        st.set_stat("markers", 19, 0)
        journals_owned(st, 0, 1)
        put(st, "specialists", "Publisher", owner=0, side="senior")
    assert points(scored(2, arrange)) == [18, 0]


def test_one_set_of_brackets_for_all_four_tracks():
    """DS-SCO-02 (designed brackets 2/4/6/8/10: 2, 4, 7, 10, 14)."""
    def arrange(st):
        for t, v in zip(TRACKS, (2, 5, 8, 11)):
            st.set_stat(t, v, 0)
        for t, v in zip(TRACKS, (10, 6, 3, 1)):
            st.set_stat(t, v, 1)
    assert points(scored(2, arrange)) == [2 + 4 + 10 + 14, 14 + 7 + 2 + 0]


def test_research_scores_nothing():
    """DS-SCO-03"""
    def arrange(st):
        st.set_stat("research", 15, 0)
        st.set_stat("research", 3, 1)
        st.set_stat("reputation", 2, 1)
    assert points(scored(2, arrange)) == [0, 2]


def test_impact_markers_score_by_the_legend():
    """DS-SCO-04 (designed: blue 1, green 2, gold 4, each in the ∞ hex 1)."""
    def arrange(st):
        for h, p in (("a1", 0), ("b1", 0), ("d1", 0), ("b3", 1), ("a4", 1)):
            st.set_piece("impact", h, "markers", 1)
            st.set_piece("impact", h, "holder", p)
        st.set_piece("impact", "c4", "markers", 3)
        st.set_stat("flood", 3, 0)
    assert points(scored(2, arrange)) == [1 + 2 + 4 + 3, 2 + 4]


def test_each_mission_goal_gives_two_points_an_item():
    """DS-SCO-05 (designed): Into the Deep, Published Findings and Protected
    Waters: each item 2 points (seat 0 alone first in each: 6, 5, 6)."""
    for goal, first in ((deep_vessels, 6), (journals_owned, 5), (conserved, 6)):
        one = points(scored(2, lambda st, goal=goal: goal(st, 0, 1)))
        two = points(scored(2, lambda st, goal=goal: goal(st, 0, 2)))
        assert one == [2 + first, 0] and two == [4 + first, 0]


def test_mission_goals_give_first_and_second_leader_bonuses():
    """DS-SCO-06 (designed bonuses: 6/3, 5/2, 6/3): counts 2, 1, 0."""
    for goal, first, second in ((deep_vessels, 6, 3), (journals_owned, 5, 2), (conserved, 6, 3)):
        def arrange(st, goal=goal):
            goal(st, 0, 2)
            goal(st, 1, 1, **({} if goal is deep_vessels else {"skip": 2}))
        assert points(scored(3, arrange)) == [4 + first, 2 + second, 0]


def _tier5(side):
    def arrange(st):
        deep_vessels(st, 0, 1)
        conserved(st, 0, 1)
        journals_owned(st, 0, 1)
        st.set_piece("impact", "a1", "markers", 1)
        st.set_piece("impact", "a1", "holder", 0)
        st.set_stat("markers", 19, 0)
        if side:
            for n in names("specialists", tier=5):
                put(st, "specialists", n, owner=0, side=side, on_top=False)
    return points(scored(2, arrange))[0]


def test_tier5_seniors_score_their_endgame_points():
    """DS-SCO-10 (designed): Explorer 3 a deep Vessel, Conservationist 2 a
    Conservation disc, Publisher 3 a Journal, Ambassador 1 a marker placed."""
    assert _tier5("senior") - _tier5(None) == 3 + 2 + 3 + 1


def test_a_junior_tier5_specialist_scores_nothing():
    """DS-SCO-11"""
    assert _tier5("junior") == _tier5(None) > 0


def test_the_highest_total_wins():
    """DS-SCO-12"""
    def arrange(st):
        st.set_stat("reputation", 4, 0)
        st.set_stat("inspiration", 6, 1)
    st = scored(2, arrange)
    assert st.result().scores == (4, 7) and st.result().winners == (1,)


def test_tied_highest_scores_share_the_victory():
    """DS-SCO-13"""
    def arrange(st):
        st.set_stat("reputation", 6, 0)
        st.set_stat("reputation", 2, 1)
        st.set_stat("coordination", 6, 2)
    st = scored(3, arrange)
    assert st.result().scores == (7, 2, 7) and st.result().winners == (0, 2)


# ================================================================ co-op

# The three C goals forced in these games: Survey front (zones in play >= 7
# + n), Lab front (Research kept >= 4 + 2n), Fleet back (Conservation discs
# >= 1 + 2n).
CARDS = ["draw Survey Card", "roll 1", "draw Lab Card", "roll 1", "draw Fleet Card", "roll 2"]
EXTRA_ZONES = [("Tide Pools", "d1"), ("Mangrove Edge", "e1"), ("The Lagoon", "a1"), ("Seamount Slope", "d2")]


def coop_game(players=2, meet=(), arrange=None, draws=CARDS):
    """A co-op game ended at once in round 1, meeting the goals named in
    ``meet`` (2 players unless said): impact (A), deep, books, saved (B),
    zones, research, saved_more (C)."""
    st = base_map(to_staging(forced_setup(players, coop=1, draws=draws)))
    n = players
    if "impact" in meet:                       # the designed need, shared evenly
        need = {1: 12, 2: 22, 3: 33, 4: 42}[n]
        for p in range(n):
            st.set_stat("flood", -(-need // n), p)
    if "deep" in meet:
        deep_vessels(st, 0, 3)
    if "books" in meet:
        journals_owned(st, 0, 1 + 2 * n)
    if "saved_more" in meet:
        conserved(st, 0, 5)
    elif "saved" in meet:
        conserved(st, 0, 1 + n)
    if "zones" in meet:
        for tile, square in EXTRA_ZONES:
            zone(st, tile, square)
    if "research" in meet:
        st.set_stat("research", 4 + 2 * n, 0)
    if arrange:
        arrange(st)
    end_now(st)
    return st


ALL = ("impact", "deep", "books", "saved", "zones", "research", "saved_more")


def test_coop_and_solo_follow_the_normal_rules():
    """DS-COO-02: a co-op game sets up and plays as a competitive one (same
    seats, same choices); only solo's length differs: 7 rounds."""
    comp, coop = setup_game(2, 0), setup_game(2, 1)
    for seat in range(2):
        assert comp.view(seat)["players"] == coop.view(seat)["players"]
    assert offered(comp) == offered(coop)
    to_staging(comp), to_staging(coop)
    assert offered(comp) == offered(coop) and comp.stat("staging", 0) == coop.stat("staging", 0)
    assert (comp.stat("rounds"), coop.stat("rounds"), setup_game(1).stat("rounds")) == (6, 6, 7)


def test_in_coop_no_one_scores_individually():
    """DS-COO-03: every seat's score is the team's goal count, whatever each did."""
    def arrange(st):
        st.set_stat("reputation", 10, 0)
    st = coop_game(meet=("saved",), arrange=arrange)
    assert st.stat("goals_met") == 1 and points(st) == [1, 1]
    assert st.result().scores == (1, 1)


def test_a_coop_game_has_seven_goals():
    """DS-COO-04: meeting every one of A, the three B and the three C goals
    counts 7, and no more."""
    st = coop_game(meet=ALL)
    assert count(st, "coop_cards", chosen=True) == 3
    assert st.stat("goals_met") == 7 and st.over == "Guardians of the Deep"


def test_goal_a_counts_impact_board_and_tier5_senior_points():
    """DS-COO-05 (designed: 12 solo, 22, 33, 42): 2 players need 22; 19
    Impact points fall short, with a Senior Publisher's 3 they meet it."""
    def impact19(st):
        for h in ("a1", "b1", "d1"):
            st.set_piece("impact", h, "markers", 1)
            st.set_piece("impact", h, "holder", 1)
        st.set_stat("markers", 17, 1)
        st.set_stat("flood", 12, 0)
        journals_owned(st, 0, 1)               # the Publisher's one Journal

    def with_publisher(st):
        impact19(st)
        put(st, "specialists", "Publisher", owner=0, side="senior", on_top=False)
    assert coop_game(arrange=impact19).stat("goals_met") == 0
    st = coop_game(arrange=with_publisher)
    assert st.stat("goals_met") == 1 and st.stat("impact_need") == 22
    assert [coop_game(p).stat("impact_need") for p in (1, 3, 4)] == [12, 33, 42]


def test_goals_b_are_the_mission_goals_co_op_banners():
    """DS-COO-06 (designed, 2 players): Vessels at depth 3+ >= 3, Journals
    >= 3, Conservation discs >= 3; one fewer misses."""
    for goal, need in ((deep_vessels, 3), (journals_owned, 3), (conserved, 3)):
        assert coop_game(arrange=lambda st, goal=goal, need=need: goal(st, 0, need)).stat("goals_met") == 1
        assert coop_game(arrange=lambda st, goal=goal, need=need: goal(st, 0, need - 1)).stat("goals_met") == 0


def test_three_coop_cards_are_laid_out_each_on_a_random_side():
    """DS-COO-07: a draw among all six cards, then a d2 for its side."""
    st = GAME.new_game(players=2, seed=1, chance="explicit", params={"coop": 1})
    while st.current_player == CHANCE and not labels(st)[0].startswith("draw Survey"):
        default_chance(st)
    assert sorted(labels(st)) == sorted(f"draw {c}" for c in PROG.piece_names["coop_cards"])
    st.apply("draw Team Card")
    assert labels(st) == ["roll 1", "roll 2"]
    st = forced_setup(2, coop=1, draws=["draw Lab Card", "roll 2", "draw Survey Card", "roll 1",
                                        "draw Team Card", "roll 2"])
    laid = {c: st.piece("coop_cards", c)["face"] for c in PROG.piece_names["coop_cards"]
            if st.piece("coop_cards", c)["chosen"]}
    assert laid == {"Lab Card": "back", "Survey Card": "front", "Team Card": "back"}


def test_an_unsuitable_card_is_replaced():
    """DS-COO-08: solo, the Mentor Card's back (2+ players) is dealt and
    set aside; three more are drawn."""
    st = forced_setup(1, coop=0, draws=["draw Mentor Card", "roll 2", "draw Lab Card", "roll 1",
                                        "draw Fleet Card", "roll 1", "draw Survey Card", "roll 1"])
    assert st.piece("coop_cards", "Mentor Card")["dealt"] and not st.piece("coop_cards", "Mentor Card")["chosen"]
    assert sorted(c for c in PROG.piece_names["coop_cards"] if st.piece("coop_cards", c)["chosen"]) == \
        ["Fleet Card", "Lab Card", "Survey Card"]
    assert count(st, "coop_cards", dealt=True) == 4


def test_unused_coop_cards_count_for_nothing():
    """DS-COO-09: the Team Card's front (5 tracks at 6+ for 2 players) is
    met but counts only when the card was laid out."""
    def tracks(st):
        for t in TRACKS:
            st.set_stat(t, 6, 0)
        st.set_stat("reputation", 6, 1)
    assert coop_game(arrange=tracks).stat("goals_met") == 0
    laid = ["draw Survey Card", "roll 1", "draw Lab Card", "roll 1", "draw Team Card", "roll 1"]
    assert coop_game(arrange=tracks, draws=laid).stat("goals_met") == 1


def test_a_threshold_is_for_the_team_as_a_whole():
    """DS-COO-10: three Conservation discs meet the 2-player banner whether
    one seat placed them all or they are shared."""
    assert coop_game(arrange=lambda st: conserved(st, 0, 3)).stat("goals_met") == 1
    assert coop_game(arrange=lambda st: (conserved(st, 0, 2), conserved(st, 1, 1, skip=2))).stat("goals_met") == 1
    assert coop_game(arrange=lambda st: (conserved(st, 0, 1), conserved(st, 1, 1, skip=1))).stat("goals_met") == 0


def test_three_players_meet_33_impact_points_with_20_13_and_0():
    """DS-COO-11 (designed: 33 for three players)."""
    def split(a, b):
        def arrange(st):
            st.set_stat("flood", a, 0)
            st.set_stat("flood", b, 1)
        return arrange
    st = coop_game(3, arrange=split(20, 13))
    assert st.stat("impact_need") == 33 and st.stat("goals_met") == 1
    assert coop_game(3, arrange=split(20, 12)).stat("goals_met") == 0


def test_the_team_counts_its_goals_after_the_last_round():
    """DS-COO-12: solo, the count comes after round 7, not round 6."""
    st = forced_setup(1, draws=CARDS)
    pass_until(st, lambda s: s.round == 7 and at_staging(s))
    assert not st.is_over and st.stat("goals_met") == 0
    base_map(st)
    conserved(st, 0, 2)                       # Protected Waters solo: 1 + 1
    pass_until(st)
    assert st.is_over and st.stat("goals_met") == 1 and points(st) == [1]


@pytest.mark.parametrize("met, ending", [
    (ALL, "Guardians of the Deep"),
    (ALL[:6], "A Lasting Difference"),
    (ALL[1:6], "A Lasting Difference"),
    (ALL[1:5], "A Hopeful Start"),
    (ALL[2:5], "A Hopeful Start"),
    (ALL[3:5], "The Ocean Still Waits"),
    ((), "The Ocean Still Waits"),
])
def test_the_result_chart(met, ending):
    """DS-COO-13 (designed chart: 7, 5-6, 3-4, fewer)."""
    st = coop_game(meet=met)
    assert st.stat("goals_met") == len(met) and st.over == ending


def test_coop_uses_no_leader_bonus_or_winner():
    """DS-COO-14: seat 0's two Journals and high tracks give no individual
    points; every seat shares the result."""
    def arrange(st):
        journals_owned(st, 0, 2)
        st.set_stat("reputation", 10, 0)
    st = coop_game(arrange=arrange)
    assert points(st) == [0, 0] and st.result().winners == (0, 1)
