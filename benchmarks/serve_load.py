"""Load on a real `rulelang serve` over loopback: many games at once, each
played by a scripted client through the HTTP API, as a browser would
(whose turn, that seat's view, its move).  Prints requests per second and
the latency percentiles, and checks that no request failed and no move was
lost (every game's moves are in the server's SQLite file afterwards).

    python benchmarks/serve_load.py [--games 200] [--moves 20] [--ruleset rulesets/northpole.rules]

tests/test_serve_load.py runs it in the long run (RULELANG_LONG=1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def play_one(client: httpx.AsyncClient, key: str, moves: int, rng: random.Random,
                   times: List[float], made: Dict[str, int]) -> None:
    """One game: create it, join both seats, make up to ``moves`` moves."""

    async def call(method: str, url: str, **kw: Any) -> httpx.Response:
        t = time.perf_counter()
        r = await client.request(method, url, **kw)
        times.append(time.perf_counter() - t)
        if r.status_code not in (200, 201):
            raise AssertionError(f"{method} {url}: {r.status_code} {r.text}")
        return r

    g = (await call("POST", "/api/games", json={"ruleset": key, "players": 2})).json()
    gid = g["id"]
    tokens = {}
    for s in g["seats"]:
        j = await call("POST", f"/api/games/{gid}/seats/{s['seat']}", json={"name": "bot"})
        tokens[s["seat"]] = j.json()["token"]
    made[gid] = 0
    for _ in range(moves):
        pub = (await call("GET", f"/api/games/{gid}")).json()
        if pub["over"]:
            return
        auth = {"Authorization": f"Bearer {tokens[pub['to_move']]}"}
        view = (await call("GET", f"/api/games/{gid}/view", headers=auth)).json()
        label = rng.choice(view["decision"]["moves"])
        await call("POST", f"/api/games/{gid}/moves", headers=auth,
                   json={"move": label, "version": view["version"]})
        made[gid] += 1


async def load(url: str, key: str, games: int, moves: int, seed: int) -> Dict[str, Any]:
    times: List[float] = []
    made: Dict[str, int] = {}
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        start = time.perf_counter()
        await asyncio.gather(*(play_one(client, key, moves, random.Random(seed + i), times, made)
                               for i in range(games)))
        wall = time.perf_counter() - start
    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(p / 100 * len(times)))] * 1000
    return {"games": games, "requests": len(times), "seconds": wall,
            "requests_per_second": len(times) / wall, "moves": sum(made.values()),
            "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99), "max_ms": times[-1] * 1000,
            "made": made}


def run(games: int = 200, moves: int = 20, ruleset: str = "rulesets/northpole.rules",
        seed: int = 1) -> Dict[str, Any]:
    """Start a server, load it, stop it, and check its file: the figures."""
    folder = tempfile.mkdtemp(prefix="rulelang-load-")
    db = os.path.join(folder, "games.sqlite")
    port = free_port()
    path = ruleset if os.path.isabs(ruleset) else os.path.join(ROOT, ruleset)
    server = subprocess.Popen([sys.executable, "-m", "rulelang", "serve", path, "--port", str(port),
                               "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                key = httpx.get(url + "/api/rulesets").json()[0]["key"]
                break
            except httpx.TransportError:
                if server.poll() is not None:
                    raise RuntimeError(server.stderr.read().decode() if server.stderr else "died") from None
                time.sleep(0.05)
        else:
            raise RuntimeError("the server did not start")
        figures = asyncio.run(load(url, key, games, moves, seed))
    finally:
        server.terminate()
        server.wait(30)
    # No move lost: the file holds every game with every move the clients made.
    con = sqlite3.connect(db)
    kept = {gid: (version, len(json.loads(replay)["moves"]))
            for gid, version, replay in con.execute("SELECT id, version, replay FROM games")}
    con.close()
    figures["lost"] = sorted(gid for gid, n in figures["made"].items() if kept.get(gid) != (n, n))
    return figures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--moves", type=int, default=20, help="the most moves each game makes")
    p.add_argument("--ruleset", default="rulesets/northpole.rules")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    f = run(a.games, a.moves, a.ruleset, a.seed)
    print(f"{f['games']} games at once, {f['moves']} moves, {f['requests']} requests in "
          f"{f['seconds']:.1f} s: {f['requests_per_second']:.0f} requests/s; latency "
          f"p50 {f['p50_ms']:.1f} ms, p90 {f['p90_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms, "
          f"max {f['max_ms']:.1f} ms; moves lost: {len(f['lost'])}")
    return 1 if f["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
