"""rulelang serve under load (issue 17): 200 games at once against a real
server over loopback, each played by a scripted client; no request may
fail and no move be lost, within a time bound.  Long run only
(``RULELANG_LONG``); the figures: ``python benchmarks/serve_load.py``."""

from __future__ import annotations

import importlib.util
import os

import pytest

if not os.environ.get("RULELANG_LONG"):
    pytest.skip("the load test is part of the long run (RULELANG_LONG=1)", allow_module_level=True)
pytest.importorskip("uvicorn", reason="rulelang serve needs the 'serve' extra")
pytest.importorskip("httpx", reason="the load test's clients use httpx")

from rulelang.serve.store import Store  # noqa: E402
from rulelang.serve.tables import Hall, Ruleset  # noqa: E402

HERE = os.path.dirname(__file__)
spec = importlib.util.spec_from_file_location(
    "serve_load", os.path.join(os.path.dirname(HERE), "benchmarks", "serve_load.py"))
serve_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(serve_load)

#: The most seconds the run may take on a busy two-core machine.
BOUND = 150


def test_two_hundred_games_at_once_lose_nothing(northpole):
    f = serve_load.run(games=200, moves=20, seed=17)
    print(f"\n{f['requests']} requests in {f['seconds']:.1f} s: {f['requests_per_second']:.0f}/s, "
          f"p50 {f['p50_ms']:.0f} ms, p99 {f['p99_ms']:.0f} ms")
    assert len(f["made"]) == 200                    # every game was made and played
    assert f["moves"] > 200 * 10                    # (a game may end early; most do not)
    assert f["lost"] == []                          # every move is in the server's file
    assert f["seconds"] < BOUND
    # ... and a server started again on that file has every game, move for move.
    hall = Hall([Ruleset("northpole", "northpole.rules", northpole)], Store(f["db"]))
    assert hall.unavailable == {}
    assert {gid: t.version for gid, t in hall.tables.items()} == f["made"]
