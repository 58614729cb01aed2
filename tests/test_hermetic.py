"""The engine is hermetic: loading a ruleset and playing it opens no file
(but the ruleset), no socket, no process, imports nothing new and reads
no clock.  The fuzz corpus (tests/test_fuzz.py) and the conformance games
(tests/test_conformance.py, audit=True) run under the same watch; these
tests show the watch works and cover the public API end to end."""

from __future__ import annotations

import ast
import random

import rulelang
from rulelang.testing import EngineAudit
from helpers import ROOT, RULESETS

PACKAGE = ROOT / "rulelang"

#: Modules no part of the engine may import: clocks, randomness outside
#: the state, the network, processes, threads.
FORBIDDEN = {"time", "datetime", "random", "socket", "subprocess", "urllib", "http", "asyncio",
             "threading", "multiprocessing", "ctypes", "requests", "uuid", "tempfile"}
#: The harness (the package rulelang/testing/), the simulation tool, the
#: command line, the terminal player (rulelang/play/), the web server
#: (rulelang/serve/), the balance report and the players (their own seeded
#: generators, a time budget) may (they time runs, start workers, serve
#: sockets, make seeds and tokens).
NOT_ENGINE = {"testing", "simulate.py", "cli.py", "__main__.py", "play", "serve", "players.py",
              "balance"}


def engine_modules():
    """Every module of the package but the harness and the command line."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] not in NOT_ENGINE and path.name != "__main__.py":
            yield path


def imports_of(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno


def test_no_engine_module_imports_clocks_randomness_network_or_processes():
    bad = []
    for path in engine_modules():
        for module, line in imports_of(path):
            if module in FORBIDDEN:
                bad.append(f"{path.relative_to(ROOT)}:{line}: import {module}")
    assert not bad, "\n".join(bad)


def test_the_only_entropy_is_a_missing_seed():
    """'secrets' is imported in one place: new_game() without a seed."""
    users = [path.name for path in engine_modules()
             if any(m == "secrets" for m, _ in imports_of(path))]
    assert users == ["game.py"]


def play_everything(path):
    game = rulelang.load(path)
    for chance in ("sample", "explicit"):
        state = game.new_game(players=game.max_players, seed=7, chance=chance)
        rng = random.Random(7)
        while not state.is_over:
            state = game.restore(state.to_json()) if rng.random() < 0.05 else state
            for seat in range(state.players):
                state.view(seat)
            state = state.clone()
            state.apply(rng.choice(state.legal_moves()))
        state.result()
        [entry.text_for(0) for entry in state.log]


def test_loading_and_playing_every_ruleset_is_hermetic():
    for path in RULESETS:
        play_everything(path)              # warm up: first-use imports happen here
        with EngineAudit(allow_open=[path]) as audit:
            play_everything(path)
        assert not audit.events, audit.format()


def test_the_audit_sees_an_open_it_does_not_allow():
    """The watch works: the same load without allowing the ruleset's file
    records the open, made from inside rulelang.api."""
    path = RULESETS[0]
    rulelang.load(path)
    with EngineAudit() as audit:
        rulelang.load(path)
    opens = [(event, module) for event, _args, module in audit.events]
    assert ("open", "rulelang.api") in opens


def test_the_audit_ignores_what_the_caller_does():
    """Only the engine is watched: the test's own file and clock use is not
    recorded."""
    import time
    with EngineAudit() as audit:
        time.time()
        (ROOT / "README.md").read_text()
    assert audit.events == []
