"""Deep Sea random games at 1 to 4 players in every mode, with the game's
invariants checked at every step: every disc, marker and Vessel in exactly
one place, every track in bounds, the tier-5 tiles accounted for, Research never negative, the Dive tokens
all accounted for, and the map always legal (each zone on a space of its
depth, under a zone of the depth above, each board in one place)."""

from __future__ import annotations

import random

import pytest

from deepsea_helpers import GAME, PROG

DISCS, MARKERS = 30, 20
SPACES = PROG.piece_names["ocean"]


def pieces(st, name):
    return [st.piece(name, p) for p in PROG.piece_names[name]]


def check(st):
    n = st.players
    oceans, ocean = pieces(st, "oceans"), pieces(st, "ocean")
    specialists, vessels = pieces(st, "specialists"), pieces(st, "vessels")
    impact, tokens = pieces(st, "impact"), pieces(st, "tokens")
    for p in range(n):
        on_tiles = sum(1 for s in specialists if s["owner"] == p and s["disc"])
        assert st.stat("supply", p) + st.stat("staging", p) + st.stat("site_discs", p) + on_tiles == DISCS
        placed = sum(1 for h in impact if h["holder"] == p) + st.stat("flood", p)
        assert st.stat("markers", p) + placed == MARKERS
        for track in ("reputation", "inspiration", "coordination", "ingenuity"):
            assert 0 <= st.stat(track, p) <= 11
        assert 0 <= st.stat("research", p) <= 15
        mine = [v for v in vessels if v["owner"] == p]
        assert len(mine) == 3
        for v in mine:
            assert v["at"] is None or ocean[v["at"]]["open"]
        held = [k for k in tokens if k["holder"] == p]
        assert all(k["place"] == "held" for k in held)
        assert st.stat("token_research", p) == sum(k["research"] for k in held)
    assert all(v["owner"] is None and v["at"] is None for v in vessels if v["colour"] > n)
    facedown = sum(1 for k in tokens if k["place"] == "facedown")
    assert facedown == st.stat("pool_free") + sum(t["dive_left"] for t in oceans if t["place"] == "zone")
    # the map: each zone on one space of its depth, under an open space
    for i, t in enumerate(oceans):
        if t["place"] == "zone":
            z = ocean[t["at"]]
            assert z["open"] and z["tile"] == i and z["y"] == t["depth"]
            if z["y"] > 1:
                above = SPACES.index(f"{SPACES[t['at']][0]}{z['y'] - 1}")
                assert ocean[above]["open"]
        else:
            assert t["at"] is None
    assert sum(1 for z in ocean if z["open"]) == sum(1 for t in oceans if t["place"] == "zone")
    assert sum(1 for t in oceans if t["place"] == "drawn") <= 2
    for h in impact:
        assert h["markers"] <= 1 or h["infinite"]
    # the tier-5 tiles: each pocket's top seen, those under it unseen and counted
    unseen = sum(1 for s in specialists if s["tier"] == 5 and s["owner"] is None and s["pocket"] is None)
    assert unseen == sum(q["under"] for q in pieces(st, "pockets"))
    assert all(s["on_top"] == (s["pocket"] is not None) for s in specialists if s["tier"] == 5)


@pytest.mark.parametrize("players,coop", [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1)])
def test_random_games_keep_every_invariant(players, coop):
    for seed in range(4):
        st = GAME.new_game(players=players, seed=seed, params={"coop": coop})
        rng = random.Random(seed)
        steps = 0
        while not st.is_over:
            check(st)
            moves = st.legal_moves()
            # a player that rarely passes, so the game goes deep
            busy = [m for m in moves if m.label not in ("Pass", "End the turn")]
            st.apply(rng.choice(busy) if busy and rng.random() < 0.9 else rng.choice(moves))
            steps += 1
        check(st)
        rounds = 7 if players == 1 else 6
        assert st.round == rounds + 1
        team = coop == 1 or players == 1
        assert (st.result().ending == "final scoring") == (not team)
        assert steps > 50
