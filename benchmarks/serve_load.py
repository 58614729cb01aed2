"""Load on a real `rulelang serve` over loopback: many games at once, each
played by a scripted client on its own keep-alive connection through the
HTTP API, as a browser would (whose turn, that seat's view, its move);
every game is made and joined first, then all are played at once.  Prints requests per second and
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
import urllib.request
from typing import Any, Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """One keep-alive HTTP/1.1 connection, as lean as it can be (the load is
    on the server: a general client such as httpx spends several times the
    server's CPU on each request, and on a shared machine would measure
    itself)."""

    def __init__(self, host: str, port: int, times: List[float], connects: List[float]) -> None:
        self.host, self.port, self.times, self.connects = host, port, times, connects
        self.reader: Optional[asyncio.StreamReader] = None
        self.writer: Optional[asyncio.StreamWriter] = None

    async def call(self, method: str, path: str, body: Any = None,
                   token: Optional[str] = None) -> Any:
        """The JSON answer; anything but 200 or 201 raises."""
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        request = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        if self.reader is None or self.reader.at_eof():
            t = time.perf_counter()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.connects.append(time.perf_counter() - t)
        t = time.perf_counter()
        assert self.writer is not None
        self.writer.write(request)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        answer = await self.reader.readexactly(length)
        self.times.append(time.perf_counter() - t)
        if status not in (200, 201):
            raise AssertionError(f"{method} {path}: {status} {answer[:300]!r}")
        return json.loads(answer)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def play_one(host: str, port: int, key: str, games: int, moves: int, rng: random.Random,
                   times: List[float], connects: List[float], made: Dict[str, int],
                   ready: asyncio.Event, joined: List[str]) -> None:
    """One game on its own connection: create it, join both seats, wait for
    every game to be made, then up to ``moves`` times: whose turn, that
    seat's view, one of its moves.  (Without the wait, on a busy machine
    uvicorn served the games already playing first, and a connection that
    came late waited seconds for its first answer.)"""
    c = Client(host, port, times, connects)
    try:
        g = await c.call("POST", "/api/games", {"ruleset": key, "players": 2})
        gid = g["id"]
        tokens = {}
        for s in g["seats"]:
            tokens[s["seat"]] = (await c.call("POST", f"/api/games/{gid}/seats/{s['seat']}",
                                              {"name": "bot"}))["token"]
        made[gid] = 0
        joined.append(gid)
        if len(joined) == games:
            ready.set()
        await ready.wait()          # every game is made before any is played
        for _ in range(moves):
            pub = await c.call("GET", f"/api/games/{gid}")
            if pub["over"]:
                return
            token = tokens[pub["to_move"]]
            view = await c.call("GET", f"/api/games/{gid}/view", token=token)
            label = rng.choice(view["decision"]["moves"])
            await c.call("POST", f"/api/games/{gid}/moves",
                         {"move": label, "version": view["version"]}, token=token)
            made[gid] += 1
    finally:
        c.close()


async def load(host: str, port: int, key: str, games: int, moves: int,
               seed: int) -> Dict[str, Any]:
    times: List[float] = []
    connects: List[float] = []
    made: Dict[str, int] = {}
    joined: List[str] = []
    ready = asyncio.Event()
    start = time.perf_counter()
    await asyncio.gather(*(play_one(host, port, key, games, moves, random.Random(seed + i), times,
                                    connects, made, ready, joined) for i in range(games)))
    wall = time.perf_counter() - start
    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(p / 100 * len(times)))] * 1000
    return {"games": games, "requests": len(times), "seconds": wall,
            "requests_per_second": len(times) / wall, "moves": sum(made.values()),
            "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99), "max_ms": times[-1] * 1000,
            "connections": len(connects), "connect_max_ms": max(connects) * 1000, "made": made}


def cpu_seconds(pid: int) -> "float | None":
    """The CPU time a process has used (Linux's /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run(games: int = 200, moves: int = 20, ruleset: str = "rulesets/northpole.rules",
        seed: int = 1) -> Dict[str, Any]:
    """Start a server, load it, stop it, and check its file: the figures."""
    folder = tempfile.mkdtemp(prefix="rulelang-load-")
    db = os.path.join(folder, "games.sqlite")
    port = free_port()
    path = ruleset if os.path.isabs(ruleset) else os.path.join(ROOT, ruleset)
    server = subprocess.Popen([sys.executable, "-m", "rulelang", "serve", path, "--port", str(port),
                               "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets") as r:
                    key = json.loads(r.read())[0]["key"]
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(server.stderr.read().decode() if server.stderr else "died") from None
                time.sleep(0.05)
        else:
            raise RuntimeError("the server did not start")
        client_cpu = time.process_time()
        server_cpu = cpu_seconds(server.pid)
        figures = asyncio.run(load("127.0.0.1", port, key, games, moves, seed))
        figures["client_cpu"] = time.process_time() - client_cpu
        if server_cpu is not None:
            figures["server_cpu"] = (cpu_seconds(server.pid) or 0.0) - server_cpu
    finally:
        server.terminate()
        server.wait(30)
    # No move lost: the file holds every game with every move the clients made.
    con = sqlite3.connect(db)
    kept = {gid: (version, len(json.loads(replay)["moves"]))
            for gid, version, replay in con.execute("SELECT id, version, replay FROM games")}
    con.close()
    figures["db"] = db
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
          f"max {f['max_ms']:.1f} ms ({f['connections']} connections, the slowest made in "
          f"{f['connect_max_ms']:.0f} ms); moves lost: {len(f['lost'])}")
    if "server_cpu" in f:
        print(f"CPU: server {f['server_cpu']:.1f} s ({f['server_cpu'] / f['requests'] * 1000:.2f} ms "
              f"a request), clients {f['client_cpu']:.1f} s; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 1 if f["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
