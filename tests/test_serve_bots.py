"""rulelang serve's thinking bots (``mcts``, ``mcts:N``, ``mcts:Ns``,
``greedy:N``): worked out in worker processes, off the event loop.  A
person's move is answered before the bot has moved; the bot's move comes
later, checked, kept and told like a person's; a restart while a bot
thinks sets it thinking again; its moves follow from the game's seed; a
client cannot ask for more than the caps.  Tiny budgets (``mcts:20`` on
small examples): the workers are shared by the module."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="rulelang serve needs the 'serve' extra")

with warnings.catch_warnings():     # (Starlette would rather have httpx2; httpx does)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import rulelang  # noqa: E402
from rulelang.serve import thinking  # noqa: E402
from rulelang.serve.app import make_app  # noqa: E402
from rulelang.serve.store import Store  # noqa: E402
from rulelang.serve.tables import Hall, Ruleset, _seed_for  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = os.path.dirname(os.path.dirname(__file__))
#: The longest a test waits for a bot's move (a loaded machine is slow).
WAIT = 60.0


def example(name):
    return rulelang.load(os.path.join(ROOT, "examples", name))


@pytest.fixture(scope="module")
def workers():
    """One worker process for the module's games (started at the first decision)."""
    pool = thinking.Thinkers(workers=1)
    yield pool
    pool.close()


class Held(thinking.Thinkers):
    """Workers that never answer: the server stops while its bot thinks."""

    async def think(self, game, replay, spec, seed):
        await asyncio.Event().wait()
        raise AssertionError("never")


class Liar(thinking.Thinkers):
    """A worker that answers a move no seat may make."""

    async def think(self, game, replay, spec, seed):
        return True, "no such space"


@pytest.fixture
def served(tmp_path, workers):
    """``start(thinkers=...)``: a hall on one SQLite file and a client with
    its lifespan running (as under uvicorn), stopped at the end."""
    path = str(tmp_path / "games.sqlite")
    rulesets = [Ruleset("ttt", "tic_tac_toe.rules", example("tic_tac_toe.rules")),
                Ruleset("kuhn", "kuhn_poker.rules", example("kuhn_poker.rules"))]
    seeds = iter(range(500, 1000))
    with contextlib.ExitStack() as stack:
        def start(thinkers=workers):
            for_this = Store(path)
            stack.callback(for_this.close)
            hall = Hall(rulesets, for_this, seeds=lambda: next(seeds), thinkers=thinkers)
            client = stack.enter_context(TestClient(make_app(hall)))
            return hall, client, stack
        yield start


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, ruleset, bots):
    r = client.post("/api/games", json={"ruleset": ruleset, "players": 2, "bots": bots})
    assert r.status_code == 201, r.text
    g = r.json()
    tokens = {}
    for s in g["seats"]:
        if s["bot"] is None:
            j = client.post(f"/api/games/{g['id']}/seats/{s['seat']}", json={"name": f"N{s['seat']}"})
            tokens[s["seat"]] = j.json()["token"]
    return g, tokens


def wait_for(client, gid, done):
    """The game (as anyone may know it) once ``done(game)``, polled; fails after ``WAIT``."""
    deadline = time.monotonic() + WAIT
    while True:
        g = client.get(f"/api/games/{gid}").json()
        if done(g):
            return g
        assert time.monotonic() < deadline, f"the bot never moved: {g}"
        time.sleep(0.02)


def state_at(hall, gid, version):
    """The game as it stood after its first ``version`` moves."""
    table = hall.tables[gid]
    doc = json.loads(table.state.to_replay(seed=True))
    doc["moves"] = doc["moves"][:version]
    return table.ruleset.game.replay(json.dumps(doc))


def expected_move(state, spec):
    """The move the bot ``spec`` makes in ``state``: the same player, with
    the seed the server gives it, in this process."""
    who = state.current_player
    return thinking.make_bot(spec, _seed_for(state.seed, who, len(state.history))).choose(state).label


def test_a_persons_move_is_answered_before_the_bot_moves(served):
    start = served
    hall, client, _ = start()
    g, tokens = create(client, "ttt", {"1": "mcts:20"})
    gid = g["id"]
    assert g["thinking"] is None and g["to_move"] == 0
    with client.websocket_connect(f"/api/games/{gid}/live") as ws:
        ws.send_text(json.dumps({"token": tokens[0]}))
        assert ws.receive_json() == {"version": 0, "seat": 0}
        r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]),
                        json={"move": "b2", "version": 0})
        assert r.status_code == 200, r.text
        answer = r.json()
        # Answered with the bot still to move: the view says it thinks.
        assert answer["version"] == 1 and answer["game"]["thinking"] == 1
        assert answer["game"]["to_move"] == 1 and answer["decision"] is None
        g = wait_for(client, gid, lambda g: g["version"] >= 2)
        assert g["thinking"] is None and g["to_move"] == 0
        # The live connection is told the bot's move, as a person's.
        seen = ws.receive_json()["version"]
        while seen < 2:
            seen = ws.receive_json()["version"]
        assert seen == 2
    st = hall.tables[gid].state
    made = st.history[1]
    assert made == expected_move(state_at(hall, gid, 1), "mcts:20")
    assert hall.store.games()[0].version == 2          # kept
    # The person plays on.
    v = client.get(f"/api/games/{gid}/view", headers=bearer(tokens[0])).json()
    assert v["decision"]["moves"] and "b2" not in v["decision"]["moves"] and made not in v["decision"]["moves"]


def test_a_seat_still_sees_only_its_own_while_a_bot_plays(served):
    hall, client, _ = served()
    g, tokens = create(client, "kuhn", {"1": "mcts:20"})
    gid = g["id"]
    assert client.post(f"/api/games/{gid}/seats/1", json={}).json()["error"] == "seat_taken"
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]),
                    json={"move": "Check", "version": 0})
    assert r.status_code == 200, r.text
    g = wait_for(client, gid, lambda g: g["version"] >= 2 or g["over"])
    st = hall.tables[gid].state
    for seat, headers in ((0, bearer(tokens[0])), (None, {})):
        got = client.get(f"/api/games/{gid}/view", headers=headers).json()
        expected = json.loads(json.dumps(st.view(seat)))
        expected.pop("legal_moves", None)
        assert got["view"] == expected
        bots_hand = got["view"]["players"][1]["piles"]["hand"]
        assert bots_hand == {"size": 1} or st.is_over, bots_hand


def test_a_restart_while_a_bot_thinks_sets_it_thinking_again(served):
    start = served
    hall, client, stack = start(thinkers=Held())
    g, tokens = create(client, "ttt", {"1": "mcts:20"})
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]),
                    json={"move": "a1", "version": 0})
    assert r.status_code == 200 and r.json()["game"]["thinking"] == 1
    page = client.get(f"/api/games/{gid}/table", headers=bearer(tokens[0])).text
    assert "P1 (mcts:20) is thinking" in page
    # While it thinks, the person's moves are refused as ever, and nothing changes.
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]),
                    json={"move": "a2", "version": 1})
    assert r.status_code == 409 and r.json()["error"] == "illegal"
    r = client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]),
                    json={"move": "a2", "version": 0})
    assert r.status_code == 409 and r.json()["error"] == "stale"
    assert hall.tables[gid].version == 1 and hall.store.games()[0].version == 1
    stack.close()       # the server stops (its lifespan ends: the thinking is dropped)
    kept = Store(hall.store.path)
    assert [row.version for row in kept.games()] == [1]
    kept.close()
    hall2, client2, _ = start()         # (and its bot thinks again, in a worker)
    g = wait_for(client2, gid, lambda g: g["version"] >= 2)
    st = hall2.tables[gid].state
    assert st.history[1] == expected_move(state_at(hall2, gid, 1), "mcts:20")
    assert hall2.store.games()[0].version == 2
    v = client2.get(f"/api/games/{gid}/view", headers=bearer(tokens[0])).json()
    r = client2.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]),
                     json={"move": v["decision"]["moves"][0], "version": v["version"]})
    assert r.status_code == 200, r.text


def test_a_bot_answer_that_is_not_a_legal_move_is_not_made(served, capsys):
    hall, client, _ = served(thinkers=Liar())
    g, tokens = create(client, "ttt", {"1": "mcts:20"})
    gid = g["id"]
    client.post(f"/api/games/{gid}/moves", headers=bearer(tokens[0]), json={"move": "a1", "version": 0})
    g = wait_for(client, gid, lambda g: g["thinking"] is None)
    assert g["version"] == 1 and g["to_move"] == 1
    assert hall.tables[gid].state.history == ["a1"] and hall.store.games()[0].version == 1
    assert "did not move: it answered a move that is not legal" in capsys.readouterr().err


@pytest.mark.parametrize("spec, says", [
    ("mcts:2001", "2000 playouts"), ("mcts:2.5s", "2s"), ("mcts:60s", "2s"),
    ("greedy:3", "at most 2"), ("greedy:9", "follows 1 to 2 of its"), ("greedy:0", "follows 1 to 2 of its"),
    ("mcts:0", "mcts needs at least 1 playout"), ("mcts:0s", "mcts needs some time"),
    ("deep-thought", "unknown bot"), ("mcts:" + "9" * 40, "short"),
])
def test_a_bot_over_the_caps_is_refused(served, spec, says):
    hall, client, _ = served()
    r = client.post("/api/games", json={"ruleset": "ttt", "bots": {"1": spec}})
    assert r.status_code == 400 and r.json()["error"] == "bad_bot"
    assert says in r.json()["message"]
    assert hall.tables == {} and hall.store.games() == []


def test_the_rulesets_say_the_bots_and_their_caps(served):
    _, client, _ = served()
    described = client.get("/api/rulesets").json()[0]
    assert "mcts" in described["bots"] and "random" in described["bots"]
    assert described["bot_limits"] == {"playouts": 2000, "seconds": 2.0, "depth": 2}
    r = client.post("/api/games", json={"ruleset": "ttt", "bots": {"0": " MCTS:20 ", "1": "greedy:2"}})
    assert [s["bot"] for s in r.json()["seats"]] == ["mcts:20", "greedy:2"]


def test_a_game_of_thinking_bots_plays_to_its_end_move_by_move(served):
    hall, client, stack = served(thinkers=None)         # (the hall's own workers, stopped with it)
    r = client.post("/api/games", json={"ruleset": "ttt", "bots": {"0": "mcts:20", "1": "greedy:2"}})
    assert r.status_code == 201
    g = r.json()
    assert g["version"] == 0 and g["thinking"] == 0      # created at once, not played through
    gid = g["id"]
    g = wait_for(client, gid, lambda g: g["over"])
    assert g["ending"] and g["thinking"] is None
    # Each move is the one its bot makes from the game's seed.
    st = hall.tables[gid].state
    again = state_at(hall, gid, 0)
    for label in st.history:
        assert label == expected_move(again, ["mcts:20", "greedy:2"][again.current_player])
        again.apply(label)
    assert again.is_over and hall.store.games()[0].version == len(st.history)
    pool = hall.thinkers
    assert pool.pool is not None
    processes = list(pool.pool._processes.values())
    stack.close()           # the server stops: its workers end
    assert pool.pool is None and all(not p.is_alive() for p in processes)


@pytest.mark.skipif(not os.environ.get("RULELANG_LONG"), reason="long run (RULELANG_LONG=1)")
def test_thinking_bots_leave_the_server_free(served):
    """Games of bots that think a second a move: the server answers
    others at once all the while, and each game goes on."""
    hall, client, _ = served(thinkers=None)
    ids = [client.post("/api/games", json={"ruleset": "ttt", "bots": {"0": "mcts:1s", "1": "mcts:1s"}})
           .json()["id"] for _ in range(3)]
    slowest = 0.0
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        t = time.perf_counter()
        assert client.get("/api/games").status_code == 200
        slowest = max(slowest, time.perf_counter() - t)
        time.sleep(0.05)
    assert slowest < 0.8, slowest
    moved = [hall.tables[i].version for i in ids]
    assert all(v >= 1 for v in moved), moved          # the workers shared move by move


def test_a_worker_killed_is_replaced_and_the_decision_asked_again():
    """A pool whose worker was killed (the system, short of memory) is
    broken: the decision is asked of a new pool, once
    (``Thinkers.RETRIES``), and the bot moves; with no retries it does not."""
    game = example("tic_tac_toe.rules")
    replay = game.new_game(seed=3).to_replay(seed=True)

    def killed_then_asked(retries):
        pool = thinking.Thinkers(workers=1)
        pool.RETRIES = retries
        try:
            assert asyncio.run(pool.think(game, replay, "random", 1))[0]     # (the pool starts)
            for process in list(pool.pool._processes.values()):
                process.kill()
                process.join(WAIT)
            return asyncio.run(pool.think(game, replay, "random", 1))
        finally:
            pool.close()

    done, label = killed_then_asked(1)
    assert done and label in {m.label for m in game.replay(replay).legal_moves()}
    assert killed_then_asked(0) == (False, "a worker process stopped")
