"""rulelang serve's API (issue 17, "rulelang serve"): seat isolation, bad
requests that change nothing, restarts that lose nothing, concurrent
moves serialised, and hostile text written into the page as text.  Quick:
Starlette's TestClient and httpx on the ASGI app, no sockets."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("starlette", reason="rulelang serve needs the 'serve' extra")
import httpx  # noqa: E402

with warnings.catch_warnings():     # (Starlette would rather have httpx2; httpx does)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import rulelang  # noqa: E402
from rulelang.serve import pages  # noqa: E402
from rulelang.serve.app import MOST_BODY, make_app  # noqa: E402
from rulelang.serve.openapi import SCHEMA  # noqa: E402
from rulelang.serve.store import Store  # noqa: E402
from rulelang.serve.tables import Hall, Ruleset  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HERE = os.path.dirname(__file__)
ROOT = os.path.dirname(HERE)

# Every text a ruleset can carry, as markup: it must reach the page as text.
HOSTILE = """\
game "<b>Hostile</b> & co"
players 2

per player { tally 0 }
deck things { "<script>alert(1)</script>" x2 }
pile hand per player, hidden

setup {
    for each player { draw 1 from things to hand }
}

turn {
    phase act {
        choose one "<img src=x onerror=alert(2)>" {
            "<i>go</i>": tally += 1
            "stop": tally += 2
        }
    }
}

end "<u>enough</u>" when any players where tally >= 3
"""


@pytest.fixture(scope="module")
def hostile():
    return rulelang.loads(HOSTILE, "hostile.rules")


@pytest.fixture
def served(tmp_path, northpole, hostile):
    """A fresh server (its hall, a client, and how to start it again on the same file)."""
    path = str(tmp_path / "games.sqlite")
    rulesets = [Ruleset("northpole", "northpole.rules", northpole),
                Ruleset("hostile", "hostile.rules", hostile)]

    seeds = iter(range(1000, 2000))
    stores = []

    def start():
        stores.append(Store(path))
        hall = Hall(rulesets, stores[-1], seeds=lambda: next(seeds))
        return hall, TestClient(make_app(hall))
    hall, client = start()
    yield hall, client, start
    for store in stores:
        store.close()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def new_game(client, ruleset="northpole", players=2, bots=None, join=True):
    r = client.post("/api/games", json={"ruleset": ruleset, "players": players, "bots": bots or {}})
    assert r.status_code == 201, r.text
    g = r.json()
    tokens = {}
    if join:
        for s in g["seats"]:
            if s["bot"] is None:
                j = client.post(f"/api/games/{g['id']}/seats/{s['seat']}", json={"name": f"N{s['seat']}"})
                assert j.status_code == 201, j.text
                tokens[s["seat"]] = j.json()["token"]
    return g["id"], tokens


def play_until(client, game_id, tokens, done, most=400):
    """Each seat to decide makes its first move until ``done(state)``."""
    for _ in range(most):
        g = client.get(f"/api/games/{game_id}").json()
        if g["over"]:
            return
        seat = g["to_move"]
        v = client.get(f"/api/games/{game_id}/view", headers=bearer(tokens[seat])).json()
        r = client.post(f"/api/games/{game_id}/moves", headers=bearer(tokens[seat]),
                        json={"move": v["decision"]["moves"][0], "version": v["version"]})
        assert r.status_code == 200, r.text
        if done():
            return
    raise AssertionError("never got there")


def someone_holds_cards(hall, game_id):
    st = hall.tables[game_id].state
    return lambda: bool(st.pile("hand", 0)) or bool(st.pile("hand", 1))


def test_a_seat_sees_only_its_own_view(served):
    hall, client, _ = served
    gid, tokens = new_game(client)
    play_until(client, gid, tokens, someone_holds_cards(hall, gid))
    st = hall.tables[gid].state
    holder = 0 if st.pile("hand", 0) else 1
    other = 1 - holder
    theirs = st.pile("hand", holder)
    assert theirs
    for seat in (0, 1):
        got = client.get(f"/api/games/{gid}/view", headers=bearer(tokens[seat])).json()
        expected = json.loads(json.dumps(st.view(seat)))
        expected.pop("legal_moves", None)
        assert got["view"] == expected
        assert got["log"] == [{"round": e.round, "player": e.player, "kind": e.kind, "text": e.text}
                              for e in st.log_for(seat)][-len(got["log"]):]
    mine = client.get(f"/api/games/{gid}/view", headers=bearer(tokens[holder])).json()
    assert mine["view"]["players"][holder]["piles"]["hand"] == sorted(theirs)
    assert mine["decision"]["moves"] == [m.label for m in st.legal_moves()]
    not_mine = client.get(f"/api/games/{gid}/view", headers=bearer(tokens[other])).json()
    assert not_mine["view"]["players"][holder]["piles"]["hand"] == {"size": len(theirs)}
    assert not_mine["decision"] is None
    spectator = client.get(f"/api/games/{gid}/view").json()
    assert spectator["seat"] is None and spectator["decision"] is None
    assert spectator["view"]["players"][holder]["piles"]["hand"] == {"size": len(theirs)}
    # The page of the other seat and a spectator's draw the hand as a count,
    # the holder's as its cards.
    for headers, shown in ((bearer(tokens[other]), False), ({}, False), (bearer(tokens[holder]), True)):
        page = client.get(f"/api/games/{gid}/table", headers=headers).text
        hand = page.split(f"<h2>P{holder} (N{holder})")[1].split('class="player')[0]
        assert (f"{len(theirs)} card" not in hand) == shown
        assert ('class="card"' in hand) == shown


def test_a_seat_cannot_move_for_another(served):
    hall, client, _ = served
    gid, tokens = new_game(client)
    table = hall.tables[gid]
    seat = table.state.current_player
    other = 1 - seat
    label = table.state.legal_moves()[0].label
    saved = table.saved
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[other]),
                    json={"move": label, "version": 0})
    assert r.status_code == 409 and r.json()["error"] == "illegal"
    assert table.version == 0 and table.saved == saved
    # ... nor a spectator, nor a token of another game.
    r = client.post(f"/api/games/{gid}/moves", json={"move": label, "version": 0})
    assert r.status_code == 403 and r.json()["error"] == "spectator"
    gid2, tokens2 = new_game(client)
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens2[seat]),
                    json={"move": label, "version": 0})
    assert r.status_code == 401 and r.json()["error"] == "bad_token"
    r = client.get(f"/api/games/{gid}/view", headers=bearer(tokens2[seat]))
    assert r.status_code == 401
    assert table.version == 0 and table.saved == saved
    assert hall.store.games()[0].replay == saved
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                    json={"move": label, "version": 0})
    assert r.status_code == 200 and table.version == 1


@pytest.mark.parametrize("body, status, code", [
    (b"{not json", 400, "bad_body"),
    (b"[1, 2]", 400, "bad_body"),
    (b'{"move": "x"}', 400, "bad_body"),                            # no version
    (b'{"move": 1, "version": 0}', 400, "bad_body"),
    (b'{"move": "M", "version": true}', 400, "bad_body"),          # a bool is not a number
    (b'{"move": "M", "version": 0.0}', 400, "bad_body"),
    (b'{"move": "M", "version": NaN}', 400, "bad_body"),
    (b'{"move": "M", "move": "M", "version": 0}', 400, "bad_body"),
    (b'{"move": "M", "version": 0, "seat": 1}', 400, "bad_body"),
    (b'{"move": "\xff", "version": 0}', 400, "bad_body"),
    (b'{"move": "M", "version": 7}', 409, "stale"),
    (b'{"move": "no such move", "version": 0}', 409, "illegal"),
    (b'{"move": "' + b"x" * MOST_BODY + b'", "version": 0}', 413, "too_large"),
])
def test_bad_requests_change_nothing(served, body, status, code):
    hall, client, _ = served
    gid, tokens = new_game(client)
    table = hall.tables[gid]
    seat = table.state.current_player
    before = table.state.clone()
    body = body.replace(b'"M"', json.dumps(table.state.legal_moves()[0].label).encode())
    r = client.post(f"/api/games/{gid}/moves", headers={**bearer(tokens[seat]),
                                                         "Content-Type": "application/json"},
                    content=body)
    assert r.status_code == status, r.text
    assert r.json()["error"] == code and r.json()["message"]
    assert table.state == before and table.state.history == []
    assert hall.store.games()[0].version == 0


def test_a_stale_move_is_refused_after_a_move(served):
    hall, client, _ = served
    gid, tokens = new_game(client)
    st = hall.tables[gid].state
    seat = st.current_player
    first = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                        json={"move": st.legal_moves()[0].label, "version": 0})
    assert first.status_code == 200
    seat = st.current_player
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                    json={"move": st.legal_moves()[0].label, "version": 0})
    assert r.status_code == 409 and r.json()["error"] == "stale"
    assert len(st.history) == 1


def test_other_refusals(served):
    hall, client, _ = served
    gid, tokens = new_game(client)
    assert client.get("/api/games/nope/view").json()["error"] == "no_game"
    assert client.post("/api/games", json={"ruleset": "nope"}).status_code == 404
    for body in ({"ruleset": "northpole", "players": 9}, {"ruleset": "northpole", "bots": {"0": "genius"}},
                 {"ruleset": "northpole", "bots": {"5": "random"}},
                 {"ruleset": "northpole", "options": {"nope": "x"}},
                 {"ruleset": "northpole", "params": {"nope": 1}}, {"ruleset": "northpole", "x": 1}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["message"], body
    r = client.post(f"/api/games/{gid}/seats/0", json={})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = client.post(f"/api/games/{gid}/seats/7", json={})
    assert r.status_code == 404
    r = client.get(f"/api/games/{gid}/view", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401
    assert client.get("/api/nothing").json()["error"] == "not_found"
    assert len(hall.store.games()) == 1


def test_restarts_keep_games_and_tokens(served):
    hall, client, start = served
    gid, tokens = new_game(client)
    play_until(client, gid, tokens, lambda: len(hall.tables[gid].state.history) >= 6)
    before = hall.tables[gid].state
    hall.store.close()
    hall2, client2 = start()
    again = hall2.tables[gid].state
    assert again == before and again.history == before.history
    assert again.seed == before.seed
    seat = again.current_player
    v = client2.get(f"/api/games/{gid}/view", headers=bearer(tokens[seat])).json()
    assert v["seat"] == seat and v["version"] == len(before.history)
    r = client2.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                     json={"move": v["decision"]["moves"][0], "version": v["version"]})
    assert r.status_code == 200
    # The file keeps tokens only as hashes.
    with open(hall2.store.path, "rb") as f:
        kept = f.read().decode("latin-1")
    assert all(t not in kept for t in tokens.values())


def test_a_game_whose_ruleset_is_gone_is_kept_not_played(served, hostile):
    hall, client, _ = served
    gid, tokens = new_game(client)
    hall.store.close()
    hall2 = Hall([Ruleset("hostile", "hostile.rules", hostile)], Store(hall.store.path))
    assert gid in hall2.unavailable and gid not in hall2.tables
    client2 = TestClient(make_app(hall2))
    r = client2.get(f"/api/games/{gid}/view", headers=bearer(tokens[0]))
    assert r.status_code == 410 and r.json()["error"] == "unavailable"
    assert [row.id for row in hall2.store.games()] == [gid]        # still in the file


def test_restarts_keep_parameters_and_bots(tmp_path):
    pig = rulelang.load(os.path.join(ROOT, "examples", "pig.rules"))
    path = str(tmp_path / "games.sqlite")
    hall = Hall([Ruleset("pig", "pig.rules", pig)], Store(path), seeds=lambda: 3)   # (a game that lasts)
    client = TestClient(make_app(hall))
    r = client.post("/api/games", json={"ruleset": "pig", "players": 2, "params": {"target": 12},
                                        "bots": {"1": "random"}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = client.post(f"/api/games/{gid}/seats/0", json={}).json()["token"]
    play_until(client, gid, {0: token}, lambda: len(hall.tables[gid].state.history) >= 8)
    before = hall.tables[gid].state
    assert before.game.params["target"]["value"] == 12
    hall.store.close()
    again = Hall([Ruleset("pig", "pig.rules", pig)], Store(path)).tables[gid].state
    assert again == before and again.history == before.history
    assert again.game.params["target"]["value"] == 12


def test_concurrent_moves_on_one_game_are_serialised(served):
    hall, _, _ = served

    async def run():
        transport = httpx.ASGITransport(app=make_app(hall))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            r = await client.post("/api/games", json={"ruleset": "northpole", "players": 2})
            gid = r.json()["id"]
            tokens = {}
            for seat in (0, 1):
                j = await client.post(f"/api/games/{gid}/seats/{seat}", json={})
                tokens[seat] = j.json()["token"]
            st = hall.tables[gid].state
            seat = st.current_player
            labels = [m.label for m in st.legal_moves()]
            sent = [client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                                json={"move": labels[i % len(labels)], "version": 0})
                    for i in range(24)]
            return gid, await asyncio.gather(*sent)
    gid, answers = asyncio.run(run())
    codes = sorted(r.status_code for r in answers)
    assert codes.count(200) == 1 and codes.count(409) == 23
    assert all(r.json()["error"] == "stale" for r in answers if r.status_code == 409)
    st = hall.tables[gid].state
    assert len(st.history) == 1
    assert hall.store.games()[0].version == 1


def test_bots_move_for_their_seats(served):
    hall, client, _ = served
    gid, tokens = new_game(client, bots={"1": "random"})
    assert list(tokens) == [0]
    play_until(client, gid, tokens, lambda: len(hall.tables[gid].state.history) >= 12)
    st = hall.tables[gid].state
    assert st.current_player in (0, None)
    assert any(e.player == 1 for e in st.log)


def test_a_game_of_bots_plays_to_its_end(served):
    hall, client, _ = served
    gid, tokens = new_game(client, bots={"0": "random", "1": "random"})
    g = client.get(f"/api/games/{gid}").json()
    assert g["over"] and g["ending"]
    assert client.post(f"/api/games/{gid}/seats/0", json={}).status_code == 409


def test_hostile_text_is_written_as_text(served):
    hall, client, _ = served
    gid, tokens = new_game(client, ruleset="hostile")
    st = hall.tables[gid].state
    seat = st.current_player
    client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                json={"move": "<i>go</i>", "version": 0})
    seat = st.current_player
    page = client.get(f"/api/games/{gid}/table", headers=bearer(tokens[seat])).text
    for markup in ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "<i>go</i>",
                   "<b>Hostile</b>"):
        assert markup not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page          # the seat's own card
    assert 'data-move="&lt;i&gt;go&lt;/i&gt;"' in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page              # the decision's title
    for path in ("/", f"/games/{gid}"):
        answer = client.get(path)
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        html = answer.text
        assert "<b>Hostile</b>" not in html and "&lt;b&gt;Hostile&lt;/b&gt; &amp; co" in html
    # A name a client joins with is text too.
    gid2, _ = new_game(client, ruleset="hostile", join=False)
    client.post(f"/api/games/{gid2}/seats/0", json={"name": "<script>x()</script>"})
    assert "<script>x()" not in client.get("/").text
    assert "&lt;script&gt;x()" in client.get("/lobby/games").text
    assert "<script>x()" not in client.get(f"/api/games/{gid2}/table").text


def test_the_page_draws_boards_tracks_and_piles():
    info = {
        "game": {"id": "g", "seats": [{"seat": 0, "name": "A", "bot": None, "taken": True}]}, "seat": 0,
        "version": 3, "boards": {"cells": "hex"},
        "layout": {"bounds": {"hp": [0, 5]}, "tracks": {"road": ["x1", "x2"]},
                   "holds": {"men": {"at": "cells"}}},
        "log": [], "log_length": 0, "decision": None,
        "view": {"round": 1, "current_player": 0, "over": None, "globals": {}, "scales": {},
                 "tracks": {"road": {"space": "x2", "far": 3}},
                 "players": [{"seat": 0, "stats": {"hp": 4}, "piles": {"hand": ["Ace"]}}],
                 "piles": {"deck": {"size": 9}},
                 "pieces": {"cells": [{"name": "c11", "x": 1, "y": 1, "v": 2},
                                      {"name": "c21", "x": 2, "y": 1, "v": None}],
                            "men": [{"name": "Bo", "at": "c21", "was": "c11"}]}},
    }
    page = pages.table_fragment(info)
    assert page.count('class="cell') == 6 and page.count('class="cell here"') == 1
    assert '<span class="space here">x2</span>' in page
    assert '<span class="card">Ace</span>' in page and "9 cards" in page
    assert 'class="board hex-map"' in page
    c21 = page.split('<div class="sname">c21</div>')[1].split('<div class="space')[0]
    assert '<div class="occupant">Bo</div>' in c21
    c11 = page.split('<div class="sname">c11</div>')[1].split('<div class="space')[0]
    assert "occupant" not in c11            # 'was' does not hold a space of the board


def test_layout_from_the_rule_file(served):
    hall, _, _ = served
    layout = hall.rulesets["northpole"].layout
    assert layout["bounds"]["position"] == [0, 29]          # 0 to pole (29)
    assert "men" not in layout["bounds"]                     # no upper bound


def test_the_openapi_schema_names_every_route(served):
    _, client, _ = served
    app = client.app
    schema = client.get("/openapi.json").json()
    assert schema == SCHEMA
    routes = {r.path for r in app.routes if r.path.startswith("/api/")}
    assert routes == set(schema["paths"])
    for path, ops in schema["paths"].items():
        for method in ops:
            route = next(r for r in app.routes if r.path == path)
            if hasattr(route, "methods") and route.methods:
                assert method.upper() in route.methods or any(
                    method.upper() in r.methods for r in app.routes
                    if r.path == path and getattr(r, "methods", None)), (path, method)


def test_live_connection_tells_new_versions(served):
    hall, client, _ = served
    gid, tokens = new_game(client)
    st = hall.tables[gid].state
    with client.websocket_connect(f"/api/games/{gid}/live") as ws:
        ws.send_text(json.dumps({"token": tokens[1]}))
        assert ws.receive_json() == {"version": 0, "seat": 1}
        seat = st.current_player
        client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[seat]),
                    json={"move": st.legal_moves()[0].label, "version": 0})
        assert ws.receive_json() == {"version": 1}
    with client.websocket_connect(f"/api/games/{gid}/live") as ws:
        ws.send_text(json.dumps({"token": "not a token"}))
        assert ws.receive_json()["error"] == "bad_token"


def test_the_command_line_refuses_bad_arguments(tmp_path):
    cmd = [sys.executable, "-m", "rulelang", "serve"]
    r = subprocess.run(cmd + [str(tmp_path / "missing.rules")], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "missing.rules" in r.stderr
    r = subprocess.run(cmd + ["--port", "0", os.path.join(ROOT, "examples", "nim.rules")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--port" in r.stderr and "Traceback" not in r.stderr
