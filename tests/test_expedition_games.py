"""The Expedition under random play: whole games at 1 to 4 players, with
the sheet's invariants checked at every step — no stat outside its
bounds, the load within the Porter Capacity, every chit accounted for
between the pools and the sheets, at most one Guide and one Canoes on a
sheet, only living explorers deciding, and discovery points that only
grow.  Moves are random, and "Make camp" is taken seldom so that games go
far into the map (``daring``); chance is sampled from the seed."""

from __future__ import annotations

import os
import random

import pytest

from rulelang.testing import Coverage

from expedition_helpers import FACE_UP, GAME, chits

#: Games per player count (test-long plays more).
GAMES = 12 if os.environ.get("RULELANG_LONG") else 4

BOUNDS = {"askaris": (0, 8), "ammo": (0, 8), "porters": (0, 10), "discontent": (0, 10),
          "health": (0, 5), "sanity": (0, 5), "time": (0, 10), "credits": (0, 20)}

#: EX-POR-03 (designed): the Porter Capacity printed beside each slot.
CAPACITY = [0, 0, 0, 10, 10, 20, 20, 30, 40, 50, 50]


def daring(st, rng):
    """A random player that makes camp only one time in ten when it could
    move, explore or hunt instead."""
    moves = st.legal_moves()
    names = [m.label for m in moves]
    if "Make camp" in names and len(names) > 1 and rng.random() < 0.9:
        moves = [m for m in moves if m.label != "Make camp"]
    return rng.choice(moves)


def room(st, p):
    """EX-POR-16/17: the capacity, 10 lower while Health is 2 or less."""
    carried = 10 if st.stat("health", p) <= 2 else 0
    return max(CAPACITY[st.stat("porters", p)] - carried, 0)


def sources(st, n):
    """The Source cards wherever they are."""
    return sorted(st.pile("sources") + st.pile("drawn_source")
                  + [c for p in range(n) for c in st.pile("found_sources", p)])


def check(st, n, start, points):
    for p in range(n):
        for name, (low, high) in BOUNDS.items():
            value = st.stat(name, p)
            assert low <= value <= high, f"P{p} {name} {value} outside {low}..{high}"
        assert st.stat("gifts", p) >= 0 and st.stat("food", p) >= 0
        held = st.pile("sheet", p)
        for one in FACE_UP:
            assert held.count(one) <= 1, f"P{p} holds {held.count(one)} {one}"   # EX-RES-14/15
        assert st.stat("points", p) >= points[p], "discovery points went down"
        points[p] = st.stat("points", p)
    assert chits(st, n) == start["chits"], "a chit went missing or appeared"     # conservation
    assert sources(st, n) == start["sources"]
    if not st.is_over and isinstance(st.current_player, int):
        names = [m.label for m in st.legal_moves()]
        if "Make camp" in names:            # a Player Turn: between rules, nothing pending
            p = st.current_player
            assert st.stat("fate", p) == "exploring", "a dead or insane explorer decides"
            assert not st.pile("aside", p)
            for q in range(n):
                if st.stat("fate", q) != "exploring":
                    continue        # the dead carry nothing more
                g, f = st.stat("gifts", q), st.stat("food", q)
                assert 10 * (g // 10 + f // 10) <= room(st, q), f"P{q} carries over capacity"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_keep_the_sheet_sound(players):
    """EX-POR-13, EX-RES-14/15, EX-SHT-03 and the chits' conservation hold
    at every step of random games, which end by the designed endings."""
    endings = set()
    for seed in range(GAMES):
        rng = random.Random(seed)
        st = GAME.new_game(players=players, seed=seed)
        start = {"chits": chits(st, players), "sources": sources(st, players)}
        assert sum(start["chits"].values()) == 23 * players         # EX-RES-06
        assert len(start["sources"]) == 12
        points = [0] * players
        steps = 0
        while not st.is_over:
            check(st, players, start, points)
            st.apply(daring(st, rng))
            steps += 1
            assert steps < 20_000
        check(st, players, start, points)
        assert st.round <= 9                                        # eight Game Turns at most
        endings.add(st.result().ending)
        for p in range(players):
            if st.stat("fate", p) != "exploring":
                assert p not in st.result().winners                 # only the living win
    assert endings <= {"the last Game Turn is over", "the Source is found",
                       "every explorer is dead or insane"}


#: Answers a daring explorer prefers (one time in five it answers at random).
DARING = ("+2 Health, -1 Sanity", "+2 Sanity, -1 Health", "A feast",
          "Spend a Quinine to keep the Askari: no", "Spend a Quinine to keep the Porter: no",
          "Canoes")


#: The slots of the Water Zones.
WATER = {name for name, wet in zip(GAME.prog.piece_names["map"], GAME.prog.piece_attr["map"]["water"])
         if wet}


def reckless(st, legal, rng):
    """A player that goes on where random play would make camp, takes the
    larger cures at their cost, feasts its men and lets them go, and keeps
    to the water while it has Canoes: it reaches the deep trouble (the last
    Porter lost, with Canoes too; madness) that random play seldom does."""
    names = {m.label: m for m in legal}
    if rng.random() < 0.8:
        if "Make camp" in names:
            acts = [k for k in ("Move", "Explore", "Hunt") if k in names]
            if acts:
                return names[rng.choices(acts, weights=[{"Move": 6, "Explore": 3, "Hunt": 1}[a]
                                                        for a in acts])[0]]
        for label in DARING:
            if label in names:
                return names[label]
        p = st.current_player
        if "Canoes" in st.pile("sheet", p):     # with Canoes, keep to the water
            wet = [m for m in legal if m.label.split(": ", 1)[-1] in WATER]
            if wet:
                return rng.choice(wet)
    return rng.choice(legal)


@pytest.mark.skipif(not os.environ.get("RULELANG_LONG"), reason="test-long: 3 000 games")
def test_every_rule_fires_in_simulated_games():
    """Every statement of the rule file runs, every rule is called, every
    table row comes up and every choice is taken, in 1 500 random games
    and 1 500 of a reckless explorer, at 1 to 4 players (rule coverage)."""
    cov = Coverage(GAME)
    cov.play(1500, seed=0)
    cov.play(1500, seed=100_000, policy=reckless)
    report = cov.report()
    assert not report.errors and not report.unfinished
    assert report.complete, report.format()
