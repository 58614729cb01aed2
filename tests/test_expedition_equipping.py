"""Expedition scenario tests for equipping with 20 Credits, the pool and
its blank side, Resources in general and gaining new Resources: each checks
the items of ../shared/rulebooks/expedition.checklist.md named in its
docstring (EX-EQP-…, EX-RES-…, EX-NEW-…), with every die and draw forced
(explicit chance mode).  The draft itself is played straight from
``GAME.new_game`` so that the roll-off sets the Turn Track; the rest starts
at the first Player Turn (``expedition_helpers.new_game``).  The designed
parts they lean on (the Villages' and Kingdoms' favours, the Tusk and
Wildlife encounters, the hunt) are in rulesets/expedition.rules."""

from __future__ import annotations

from collections import Counter

import pytest

from rulelang import CHANCE

from expedition_helpers import (GAME, PROG, answer, draw, give, labels, new_game, offered, only,
                                put, roll, sheet)

ABUNDANT = ("Quinine", "Cannabis", "Bible", "Rifle", "Ammo")
SPARSE = ("Books", "Diary", "Revolver", "Machete", "Pickax", "Canteen", "Canoes", "Guide",
          "Telescope", "Surveying", "Altimeter", "Painting", "Fishing")


# ---------------------------------------------------------------- helpers

def draft(players, *rolls):
    """A new game at its first purchase: the roll-off forced with ``rolls``
    (one d10 a seat, in seat order; a lone explorer rolls none)."""
    st = GAME.new_game(players=players, seed=1, chance="explicit")
    if players > 1:
        roll(st, *rolls)
    return st


def buying(st):
    """True while the decision waiting is a purchase."""
    moves = labels(st)
    return st.current_player != CHANCE and bool(moves) and moves[0].startswith("Buy: ")


def buy_out(st):
    """Finish equipping, each buyer taking the first Resource offered;
    returns the seats that bought, in order."""
    seats = []
    while buying(st):
        seats.append(st.current_player)
        st.apply(st.legal_moves()[0])
    return seats


def everyone(players):
    """Every seat and a spectator (None)."""
    return list(range(players)) + [None]


def move_to(st, dest, frm):
    """The player in turn stands on ``frm`` and moves to ``dest``."""
    put(st, st.current_player, at=frm)
    return answer(st, "Move", dest)


def liked_by_village(st, village, frm):
    """Move into ``village`` from ``frm``, be respected (d10 1) and liked
    (2 Gifts, d10 1): the decision waiting is "The Village's favour".
    Coast Town's Missionary rolls in between (6: nobody comes)."""
    move_to(st, village, frm)
    roll(st, 1)
    if village == "Coast Town":
        roll(st, 6)
    answer(st, "Gifts offered to the Village: 2")
    return roll(st, 1)


def honoured_by_kingdom(st, kingdom, frm):
    """Move into ``kingdom`` from ``frm`` and be honoured (3 Gifts, d6 2):
    the decision waiting is "The King's gift"."""
    move_to(st, kingdom, frm)
    answer(st, "Gifts for the King: 3")
    return roll(st, 2)


def piles_seen(st, seat):
    return st.view(seat)["piles"]


# ---------------------------------------------------------------- equipping

def test_every_player_has_20_credits_before_the_first_game_turn():
    """EX-EQP-01: at the first purchase, before Game Turn 1 (round 0, no
    Time set yet), every seat sees 20 Credits on every sheet."""
    st = draft(3, 2, 9, 5)
    assert buying(st) and st.round == 0
    for seat in everyone(3):
        for p in st.view(seat)["players"]:
            assert p["stats"]["credits"] == 20
            assert p["stats"]["time"] == 0


@pytest.mark.parametrize("rolls, order", [((4, 9, 2), [1, 2, 0]), ((3, 1, 8), [2, 0, 1]),
                                          ((10, 6, 7), [0, 1, 2]),
                                          ((7, 7, 3, 2, 9), [1, 2, 0])])   # a tie rolled again
def test_players_buy_in_turn_track_order_from_the_roll_off_winner(rolls, order):
    """EX-EQP-02: the roll-off winner (after a tie, the winner of the
    re-roll) buys first, then the others clockwise (the designed Turn
    Track, EX-GAP-02), each "Buy" asked of that seat."""
    st = draft(3, *rolls)
    assert st.stat("first") == order[0]
    seen = []
    for _ in range(6):
        seen.append(st.current_player)
        assert labels(st)[0].startswith("Buy: ")
        st.apply(st.legal_moves()[0])
    assert seen == order * 2


def test_a_purchase_is_one_chit_then_the_next_player_buys():
    """EX-EQP-03: a purchase takes exactly one chit for one Credit, and then
    the decision passes to the next player in order; while one seat buys,
    the others are offered nothing."""
    st = draft(2, 8, 3)
    assert st.current_player == 0
    assert st.legal_moves(1) == [] and "legal_moves" not in st.view(1)
    answer(st, "Buy: Telescope")
    assert sheet(st, 0) == ["Telescope"] and sheet(st, 1) == []
    assert st.stat("credits", 0) == 19 and st.stat("credits", 1) == 20
    assert st.current_player == 1 and buying(st)
    assert st.legal_moves(0) == []
    answer(st, "Buy: Diary")
    assert sheet(st, 1) == ["Diary"] and st.stat("credits", 1) == 19
    assert st.current_player == 0 and buying(st)


def test_rounds_of_purchases_repeat_until_all_credits_are_spent():
    """EX-EQP-04: after the last player in order the first buys again, round
    after round: with 3 players and seat 2 first, 20 rounds of 2, 0, 1 and
    then Game Turn 1 begins."""
    st = draft(3, 1, 1, 10)
    assert buy_out(st) == [2, 0, 1] * 20
    assert st.round == 1 and "Make camp" in offered(st)


def test_no_credits_are_left_after_equipping():
    """EX-EQP-05: every player has spent all 20 Credits when equipping ends,
    each holding 20 chits, and the Credits stay at 0 in Game Turn 1."""
    st = new_game(3, first=1)
    for p in range(3):
        assert st.stat("credits", p) == 0
        assert len(sheet(st, p)) == 20


def test_a_credit_that_can_buy_nothing_is_forfeited():
    """EX-EQP-05 (Reading): a player with Credits left but nothing it may
    buy (the pool holds only a Guide and Canoes, which it has already)
    loses them: equipping ends with 0 Credits and nothing more bought."""
    st = draft(1)
    st.set_pile("pool", ["Guide", "Canoes", "Quinine"])
    st.set_pile("sheet", ["Guide", "Canoes"], 0)
    put(st, credits=3)
    assert offered(st) == ["Quinine"]
    answer(st, "Buy: Quinine")
    assert not buying(st) and st.round == 1
    assert st.stat("credits", 0) == 0
    assert sheet(st) == ["Canoes", "Guide", "Quinine"]
    assert sorted(st.pile("pool")) == ["Canoes", "Guide"]


def test_each_purchase_costs_one_credit_and_is_a_chit_of_the_pool():
    """EX-EQP-06 (Reading: the things bought are the pool's Resources): the
    purchases offered are exactly the kinds in the pool, each costs 1
    Credit and moves one chit from the pool to the sheet, so a lone
    explorer makes 20 purchases out of its 23 chits."""
    st = draft(1)
    made = 0
    bought = Counter()
    while buying(st):
        pool = Counter(st.pile("pool"))
        assert sorted(offered(st)) == sorted(pool)
        pick = offered(st)[-1]               # the last kind offered, to vary it
        before = st.stat("credits", 0)
        answer(st, "Buy: " + pick)
        made += 1
        bought[pick] += 1
        assert st.stat("credits", 0) == before - 1
        assert Counter(st.pile("sheet", 0)) == bought
        left = Counter(st.pile("pool")) + Counter(st.pile("blank_pool"))   # flipped at the end
        assert left == pool - Counter([pick])
    assert made == 20
    assert len(sheet(st)) == 20 and len(st.pile("pool")) + len(st.pile("blank_pool")) == 3


def test_a_second_copy_may_be_bought_but_not_a_second_guide_or_canoes():
    """EX-EQP-07, EX-RES-14, EX-RES-15: with two players (two of each sparse
    chit in the pool), seat 0 may buy Quinine twice, but once it holds a
    Guide and Canoes it is never offered another, while seat 1 still is;
    and Canoes may be bought though Coast Town is no Water Zone
    (EX-EQP-07 Reading)."""
    st = draft(2, 9, 4)
    answer(st, "Buy: Guide", "Buy: Books", "Buy: Quinine", "Buy: Books", "Buy: Quinine",
           "Buy: Diary", "Buy: Canoes")
    assert sheet(st, 0) == ["Canoes", "Guide", "Quinine", "Quinine"]
    assert st.current_player == 1
    assert "Guide" in offered(st) and "Canoes" in offered(st)
    answer(st, "Buy: Diary")
    assert st.current_player == 0
    assert "Guide" not in offered(st) and "Canoes" not in offered(st)
    assert st.pile("pool").count("Guide") == 1 and st.pile("pool").count("Canoes") == 1
    buy_out(st)
    assert sheet(st, 0).count("Guide") == 1 and sheet(st, 0).count("Canoes") == 1
    assert sheet(st, 1).count("Guide") == 1 and sheet(st, 1).count("Canoes") == 1


def test_unbought_chits_are_turned_blank_but_guides_and_canoes_stay_face_up():
    """EX-EQP-08, EX-EQP-09, EX-EQP-10: during the draft every chit is face
    up (nothing blank); when it ends, the unbought Books goes blank side up
    (EX-EQP-08) while the unbought Guide (EX-EQP-09) and Canoes (EX-EQP-10)
    stay in the face-up pool."""
    st = draft(1)
    assert st.pile("blank_pool") == []
    for name in SPARSE + ABUNDANT * 2:
        if name not in ("Guide", "Canoes", "Books"):
            assert buying(st)
            answer(st, "Buy: " + name)
    assert not buying(st)
    assert sorted(st.pile("pool")) == ["Canoes", "Guide"]
    assert st.pile("blank_pool") == ["Books"]


def test_a_spent_resource_goes_back_blank_and_mixed_in():
    """EX-EQP-11: a Quinine spent to keep a Porter goes to the blank side of
    the pool, not to the face-up pool; no seat sees more of it there than
    the blank pool's size; and the next random draw (another player's Tusk)
    can bring it up."""
    st = new_game(2, first=0)
    only(st, 0, "Quinine")
    only(st, 1)
    st.set_pile("blank_pool", [])
    face_up = sorted(st.pile("pool"))
    answer(st, "Move", "Thorn Scrub")
    roll(st, 4, 6)                                   # Wildlife: a beast attacks
    answer(st, "Spend a Quinine to keep the Porter: yes")
    assert st.stat("porters", 0) == 8
    assert sheet(st, 0) == [] and st.pile("blank_pool") == ["Quinine"]
    assert sorted(st.pile("pool")) == face_up
    for seat in everyone(2):
        assert piles_seen(st, seat)["blank_pool"] == {"size": 1}
    assert st.current_player == 1
    answer(st, "Move", "Thorn Scrub")
    roll(st, 3, 1, 10)                               # Tusk, the hunt succeeds, no Ammo used
    assert labels(st) == ["draw Quinine"]
    draw(st, "Quinine")
    assert sheet(st, 1) == ["Quinine"] and st.pile("blank_pool") == []


def test_a_random_draw_takes_an_unseen_blank_chit():
    """EX-EQP-12 (Reading: Guides and Canoes stay face up and apart, random
    draws take only blank chits): before a Tusk's draw no seat (the drawer
    included) nor a spectator sees what the blank pool holds, only its
    size, and no seat is offered anything; the draw's outcomes are the
    blank chits weighted by their copies, never the face-up Guide or
    Canoes; after it, the chit is known to every seat, on the sheet and in
    the log."""
    st = new_game(2, first=0)
    only(st, 0)
    only(st, 1)
    st.set_pile("blank_pool", ["Books", "Rifle", "Rifle"])
    assert sorted(st.pile("pool")) == ["Canoes", "Canoes", "Guide", "Guide"]
    answer(st, "Move", "Thorn Scrub")
    roll(st, 3, 1, 10)
    assert st.current_player == CHANCE
    for seat in everyone(2):
        seen = piles_seen(st, seat)
        assert seen["blank_pool"] == {"size": 3}
        assert sorted(seen["pool"]) == ["Canoes", "Canoes", "Guide", "Guide"]
        assert "legal_moves" not in st.view(seat)
    assert st.legal_moves(0) == [] and st.legal_moves(1) == []
    odds = {m.label: m.probability for m in st.legal_moves()}
    assert odds == {"draw Books": pytest.approx(1 / 3), "draw Rifle": pytest.approx(2 / 3)}
    draw(st, "Rifle")
    assert sheet(st, 0) == ["Rifle"]
    for seat in everyone(2):
        assert st.view(seat)["players"][0]["piles"]["sheet"] == ["Rifle"]
        assert any(e.text == "draws Rifle" for e in st.log_for(seat))


# ---------------------------------------------------------------- the chits

def test_resources_have_a_face_side_and_a_blank_side():
    """EX-RES-01: face up in the pool, the chits are seen by name by every
    seat and a spectator; the same chits turned to their blank side when
    equipping ends are seen by nobody, only counted."""
    st = draft(2, 5, 6)
    face = [Counter(piles_seen(st, seat)["pool"]) for seat in everyone(2)]
    assert all(seen == Counter(st.pile("pool")) and seen["Fishing"] == 2 for seen in face)
    buy_out(st)
    blank = st.pile("blank_pool")
    assert blank and Counter(blank) <= face[0]
    for seat in everyone(2):
        seen = piles_seen(st, seat)["blank_pool"]
        assert seen == {"size": len(blank)}


def test_there_are_18_resources_5_abundant_and_13_sparse():
    """EX-RES-02: the box holds eighteen kinds of chits; the five abundant
    ones (and only they) carry ``abundant``, and a lone explorer's first
    purchase offers all eighteen."""
    st = GAME.new_game(players=2, seed=1, chance="explicit")
    box = Counter(st.pile("box"))
    assert sorted(box) == sorted(ABUNDANT + SPARSE)
    flags = PROG.card_props["abundant"]
    assert {PROG.card_names[i] for i, yes in flags.items() if yes} == set(ABUNDANT)
    assert {PROG.card_names[i] for i, yes in flags.items() if not yes} == set(SPARSE)
    assert sorted(offered(draft(1))) == sorted(ABUNDANT + SPARSE)


def test_the_box_holds_5_of_each_sparse_and_10_of_each_abundant_chit():
    """EX-RES-03, EX-RES-05: before the pool is made (at the roll-off) the
    box holds 5 chits of each sparse Resource (EX-RES-03) and 10 of each
    abundant one (EX-RES-05), 115 in all."""
    st = GAME.new_game(players=2, seed=1, chance="explicit")
    assert st.current_player == CHANCE and st.pile("pool") == []
    box = Counter(st.pile("box"))
    assert all(box[name] == 5 for name in SPARSE)
    assert all(box[name] == 10 for name in ABUNDANT)
    assert sum(box.values()) == 115


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_pool_holds_one_sparse_and_two_abundant_chits_per_player(players):
    """EX-RES-04, EX-RES-06: at the first purchase the pool holds one chit of
    each sparse Resource per player (EX-RES-04) and two of each abundant
    one (EX-RES-06): 23 chits per player, all taken from the box."""
    st = draft(players, *range(10, 10 - players, -1))
    pool = Counter(st.pile("pool"))
    assert all(pool[name] == players for name in SPARSE)
    assert all(pool[name] == 2 * players for name in ABUNDANT)
    assert sum(pool.values()) == 23 * players
    assert len(st.pile("box")) == 115 - 23 * players


def test_chits_left_in_the_box_stay_out_of_play():
    """EX-RES-07 (Reading: enough chits for five, box chits never used):
    with four players the box still holds a fifth share (one of each sparse
    chit, two of each abundant); equipping and a random draw in Game Turn 1
    never touch it."""
    st = draft(4, 10, 1, 1, 1)
    box = Counter(st.pile("box"))
    assert box == Counter({name: 1 for name in SPARSE}) + Counter({name: 2 for name in ABUNDANT})
    buy_out(st)
    only(st, 0)
    st.set_pile("blank_pool", ["Diary"])
    answer(st, "Move", "Thorn Scrub")
    roll(st, 3, 1, 10)                               # Tusk: the ivory hunt succeeds
    assert labels(st) == ["draw Diary"]              # the box's chits cannot come up
    draw(st, "Diary")
    assert Counter(st.pile("box")) == box


# ---------------------------------------------------------------- owning and spending

def walk_to_thorn_scrub(st):
    """Move from Coast Town to Thorn Scrub, where there is game (a quiet
    encounter, d10 8)."""
    answer(st, "Move", "Thorn Scrub")
    return roll(st, 8)


def hunt(st, success, food_die):
    """A hunt where the player stands (d10 ``success``, an Ammo-roll of 10
    that uses nothing, the Food d6)."""
    answer(st, "Hunt")
    return roll(st, success, 10, food_die)


def test_an_owned_resource_works_every_time_and_is_kept():
    """EX-RES-08: a Rifle gives its +1 to the Food-roll on two hunts running
    (2 × (3 + 1) Food each time) and is still on the sheet after both."""
    st = new_game(1)
    only(st, 0, "Rifle")
    walk_to_thorn_scrub(st)
    hunt(st, 1, 3)
    assert st.stat("food", 0) == 28 and sheet(st) == ["Rifle"]
    hunt(st, 1, 3)
    assert st.stat("food", 0) == 36 and sheet(st) == ["Rifle"]


def test_a_spend_resource_works_when_spent_and_goes_back_to_the_pool():
    """EX-RES-09: a Quinine spent when a Porter would be lost keeps the
    Porter (no Discontent), and spending it gives the chit back to the pool
    (blank side up): it leaves the sheet."""
    st = new_game(1)
    only(st, 0, "Quinine")
    blank = st.pile("blank_pool").count("Quinine")
    answer(st, "Move", "Thorn Scrub")
    roll(st, 4, 6)                                   # Wildlife: a beast attacks
    answer(st, "Spend a Quinine to keep the Porter: yes")
    assert st.stat("porters", 0) == 8 and st.stat("discontent", 0) == 1
    assert sheet(st) == []
    assert st.pile("blank_pool").count("Quinine") == blank + 1


def test_a_spend_resource_not_spent_does_nothing_and_is_kept():
    """EX-RES-09, EX-RES-10: the player may refuse to spend a Quinine when a
    Porter is lost: no rule forces it (EX-RES-10), the Porter is then lost
    (the effect needs the spend, EX-RES-09) and the Quinine stays."""
    st = new_game(1)
    only(st, 0, "Quinine")
    answer(st, "Move", "Thorn Scrub")
    roll(st, 4, 6)
    assert offered(st) == ["yes", "no"]
    answer(st, "Spend a Quinine to keep the Porter: no")
    assert st.stat("porters", 0) == 7 and st.stat("discontent", 0) == 2
    assert sheet(st) == ["Quinine"]


def test_resources_may_be_kept_at_time_up():
    """EX-RES-10: at Time up each spend is offered with a way to keep the
    chit (Quinine and Cannabis "Keep it", Ammo "no"); keeping all three
    leaves the sheet, Health, Sanity and Ammo Stock as they were."""
    st = new_game(1)
    only(st, 0, "Quinine", "Cannabis", "Ammo")
    put(st, health=4, sanity=4, ammo=5)
    answer(st, "Make camp")
    assert "Keep it" in offered(st)
    answer(st, "Keep it", "Keep it", "Spend an Ammo: +1 Ammo Stock: no")
    assert sheet(st) == ["Ammo", "Cannabis", "Quinine"]
    assert (st.stat("health", 0), st.stat("sanity", 0), st.stat("ammo", 0)) == (4, 4, 5)


def test_two_copies_of_an_owned_resource_give_its_effect_once():
    """EX-RES-11: with two Rifles a hunt's Food-roll of 3 still gives
    2 × (3 + 1) = 8 Food, not 2 × (3 + 2)."""
    st = new_game(1)
    only(st, 0, "Rifle", "Rifle")
    walk_to_thorn_scrub(st)
    hunt(st, 1, 3)
    assert st.stat("food", 0) == 28


def test_a_spare_copy_keeps_the_effect_when_one_is_given_back():
    """EX-RES-12: with two Rifles, one given to the Lake Kingdom as its
    present, the other still gives +1 to the next hunt's Food-roll."""
    st = new_game(1)
    only(st, 0, "Rifle", "Rifle")
    move_to(st, "Lake Kingdom", "West Shore")
    answer(st, "Give a Rifle as the present (as 6 Gifts): yes")
    roll(st, 6)                                      # even a 6 succeeds with a Rifle
    answer(st, "A feast")
    assert sheet(st) == ["Rifle"]
    answer(st, "Move", "West Shore")
    roll(st, 8)                                      # a quiet crossing
    hunt(st, 1, 3)
    assert st.stat("food", 0) == 28


def test_two_copies_are_spent_on_two_occasions():
    """EX-RES-13: a Warband that strikes takes an Askari and a Porter; with
    two Quinine the player spends one on each loss, one chit each time, and
    keeps both men."""
    st = new_game(1)
    only(st, 0, "Quinine", "Quinine")
    answer(st, "Move", "Thorn Scrub")
    roll(st, 1, 10, 10)                              # Warband; Ambush-roll 10 fails; no Ammo used
    answer(st, "Spend a Quinine to keep the Askari: yes")
    assert sheet(st) == ["Quinine"]
    answer(st, "Spend a Quinine to keep the Porter: yes")
    assert sheet(st) == []
    assert (st.stat("askaris", 0), st.stat("porters", 0), st.stat("discontent", 0)) == (6, 8, 1)


def test_two_copies_cannot_be_spent_on_one_occasion():
    """EX-RES-13 (Reading: one chit per effect per occasion): at Time up with
    two Quinine only one is offered; +1 Health is taken once and the other
    Quinine stays for another occasion."""
    st = new_game(1)
    only(st, 0, "Quinine", "Quinine")
    put(st, health=3)
    answer(st, "Make camp", "+1 Health")
    assert st.stat("health", 0) == 4 and sheet(st) == ["Quinine"]
    assert st.round == 2 and "Make camp" in offered(st)     # no second Quinine asked


def test_a_resource_bonus_counts_for_discoveries_made_while_it_is_held():
    """EX-RES-16 (Reading: at the time of the discovery): Coast Town's
    culture found without Books scores 1 DP, and Books got afterwards adds
    nothing to it; Thorn Scrub's flora found with Books scores 1 + 1; and
    giving the Books away afterwards takes nothing back."""
    st = new_game(1)
    only(st, 0)
    answer(st, "Explore")
    assert st.stat("points", 0) == 1
    give(st, 0, "Books")
    answer(st, "Move", "Thorn Scrub")
    roll(st, 8)                                      # quiet
    assert st.stat("points", 0) == 1
    answer(st, "Explore")
    assert st.stat("points", 0) == 3
    only(st, 0)
    answer(st, "Make camp")
    assert st.stat("points", 0) == 3


# ---------------------------------------------------------------- new Resources

def test_resources_are_not_bought_after_equipping():
    """EX-NEW-01: once equipping is over nothing is for sale: even with
    Credits put back on the sheet, the Player Turn offers only moving,
    exploring and camping, through Game Turns 1 and 2, and the sheet and
    Credits do not change."""
    st = new_game(1)
    put(st, credits=5)
    held = sheet(st)
    assert offered(st) == ["Move", "Explore", "Make camp"]
    answer(st, "Make camp")
    while st.current_player != CHANCE and "Make camp" not in offered(st):
        assert not any(m.startswith("Buy") for m in labels(st))
        st.apply([m for m in st.legal_moves() if m.label.endswith(": no") or "Keep" in m.label][0])
    assert st.round == 2 and offered(st) == ["Move", "Explore", "Make camp"]
    assert sheet(st) == held and st.stat("credits", 0) == 5


@pytest.mark.parametrize("favour, chit", [("A Guide", "Guide"), ("Canoes", "Canoes")])
def test_a_village_can_give_a_guide_or_canoes(favour, chit):
    """EX-NEW-02: River Mouth, a Village in a Water Zone, that likes the
    expedition offers a Guide and Canoes among its favours; the one chosen
    moves from the face-up pool to the sheet."""
    st = new_game(1)
    only(st, 0)
    liked_by_village(st, "River Mouth", "Mangrove Creek")
    assert {"A Guide", "Canoes"} <= set(offered(st))
    in_pool = st.pile("pool").count(chit)
    answer(st, favour)
    assert sheet(st) == [chit]
    assert st.pile("pool").count(chit) == in_pool - 1


@pytest.mark.parametrize("gift, chit", [("A Guide", "Guide"), ("Canoes", "Canoes")])
def test_a_kingdom_can_give_a_guide_or_canoes(gift, chit):
    """EX-NEW-03: the Lake Kingdom (in a Water Zone) honouring the
    expedition offers a Guide and Canoes among the King's gifts; the one
    chosen moves from the face-up pool to the sheet."""
    st = new_game(1)
    only(st, 0)
    honoured_by_kingdom(st, "Lake Kingdom", "West Shore")
    assert {"A Guide", "Canoes"} <= set(offered(st))
    in_pool = st.pile("pool").count(chit)
    answer(st, gift)
    assert sheet(st) == [chit]
    assert st.pile("pool").count(chit) == in_pool - 1


def test_a_tusk_encounter_gives_a_random_resource():
    """EX-NEW-04: a Tusk Encounter whose ivory hunt succeeds draws one chit
    from the blank pool onto the sheet (and one that fails draws none)."""
    st = new_game(1)
    only(st, 0)
    blank = len(st.pile("blank_pool"))
    answer(st, "Move", "Thorn Scrub")
    roll(st, 3, 1, 10)
    assert st.current_player == CHANCE and all(m.startswith("draw ") for m in labels(st))
    draw(st, "Machete")
    assert sheet(st) == ["Machete"] and len(st.pile("blank_pool")) == blank - 1
    answer(st, "Move", "Grassland")
    roll(st, 3, 9, 10)                               # Tusk; the elephants get away
    assert st.current_player == 0 and sheet(st) == ["Machete"]


def test_a_wildlife_encounter_gives_a_random_resource():
    """EX-NEW-05: a Wildlife Encounter with a d6 of 1 to 3 draws one chit
    from the blank pool onto the sheet (a 4 draws none)."""
    st = new_game(1)
    only(st, 0)
    blank = len(st.pile("blank_pool"))
    answer(st, "Move", "Thorn Scrub")
    roll(st, 4, 3)
    assert st.current_player == CHANCE and all(m.startswith("draw ") for m in labels(st))
    draw(st, "Painting")
    assert sheet(st) == ["Painting"] and len(st.pile("blank_pool")) == blank - 1
    answer(st, "Move", "Grassland")
    roll(st, 4, 4)                                   # the animals slip away
    assert st.current_player == 0 and sheet(st) == ["Painting"]


def stock_pool(st):
    """Make sure the face-up pool holds a Guide and Canoes (from the box)."""
    for name in ("Guide", "Canoes"):
        if name not in st.pile("pool"):
            box = st.pile("box")
            box.remove(name)
            st.set_pile("box", box)
            st.set_pile("pool", st.pile("pool") + [name])
    return st


@pytest.mark.parametrize("where, frm, held, face_up", [
    ("River Mouth", "Mangrove Creek", "Guide", {"Canoes"}),
    ("River Mouth", "Mangrove Creek", "Canoes", {"A Guide"}),
    ("Coast Town", "Thorn Scrub", None, {"A Guide"}),
    ("Lake Kingdom", "West Shore", "Guide", {"Canoes"}),
    ("Lake Kingdom", "West Shore", "Canoes", {"A Guide"}),
    ("Hill Kingdom", "Salt Pan", None, {"A Guide"}),
])
def test_a_resource_the_player_may_not_hold_is_not_offered(where, frm, held, face_up):
    """EX-NEW-06, EX-RES-14, EX-RES-15: with a Guide and Canoes in the pool,
    a Village's favours and a King's gifts never offer a second Guide
    (EX-RES-14) or second Canoes (EX-RES-15) to a player who has one, nor
    Canoes outside a Water Zone (Coast Town, the Hill Kingdom;
    EX-R-CANOES-04); the other face-up chit is still offered."""
    st = new_game(1)
    only(st, 0, *([held] if held else []))
    stock_pool(st)
    if where.endswith("Kingdom"):
        honoured_by_kingdom(st, where, frm)
    else:
        liked_by_village(st, where, frm)
    assert {"A Guide", "Canoes"} & set(offered(st)) == face_up


def test_a_random_draw_never_gives_a_guide_or_canoes():
    """EX-NEW-06 (Reading EX-EQP-12: random draws take only blank chits): a
    Wildlife draw for a player holding a Guide and Canoes offers only the
    blank chits, never the face-up Guide or Canoes left in the pool."""
    st = new_game(2, first=0)
    only(st, 0, "Guide", "Canoes")
    only(st, 1)
    assert st.pile("pool").count("Guide") == 1 and st.pile("pool").count("Canoes") == 1
    answer(st, "Move", "Thorn Scrub")
    roll(st, 4, 1)
    names = {m.split(" ", 1)[1] for m in labels(st)}
    assert names == set(st.pile("blank_pool")) and not names & {"Guide", "Canoes"}


def test_an_empty_blank_pool_gives_nothing():
    """EX-NEW-07 (Reading: no gain, no substitute): a Tusk hunt that
    succeeds with the blank pool empty draws nothing (no draw is offered,
    not even from the box or the face-up Guides and Canoes) and the sheet
    is unchanged."""
    st = new_game(1)
    only(st, 0)
    st.set_pile("blank_pool", [])
    answer(st, "Move", "Thorn Scrub")
    roll(st, 3, 1, 10)
    assert st.current_player == 0 and "Make camp" in offered(st)
    assert sheet(st) == [] and st.pile("blank_pool") == []
    assert any(e.text == "the ivory hunt succeeds" for e in st.log)


def test_a_favour_with_no_guide_or_canoes_in_the_pool_offers_neither():
    """EX-NEW-07: when the face-up pool holds no Guide and no Canoes, a
    Village's favour offers only its other four favours."""
    st = new_game(1)
    only(st, 0)
    st.set_pile("pool", [])
    liked_by_village(st, "River Mouth", "Mangrove Creek")
    assert offered(st) == ["Two Porters", "An Askari", "Food", "A feast"]
