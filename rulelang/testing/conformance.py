"""``check_ruleset``: random games in each chance mode, shared out over
worker processes when asked, each played by ``runner._Runner`` (see the
package's documentation for what is checked)."""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import attrs

from ..engine import Game
from .audit import EngineAudit
from .processes import Child, _child, _communicate_all, _digests, _game_of_job, _job
from .report import DEFAULT_MAX_MOVES, Failure, Fresh, Report, _Spec
from .runner import _Runner

#: A game to play: (its chance mode, its index among that mode's games, its spec).
Play = Tuple[str, int, _Spec]

_PRAGMA = re.compile(r"^[ \t]*#[ \t]*conformance:[ \t]*max-moves[ \t]+(\d+)[ \t]*$", re.M)


def declared_max_moves(game: Game) -> Optional[int]:
    """The bound a ruleset declares with ``# conformance: max-moves N``."""
    m = _PRAGMA.search(game.ruleset.source or "")
    return int(m.group(1)) if m else None


def check_ruleset(game: Game, games: int = 200, seed: int = 0, *,
                  chance: Sequence[str] = ("sample", "explicit"),
                  players: Optional[Sequence[int]] = None,
                  max_moves: Optional[int] = None,
                  fresh_games: int = 2,
                  hash_seeds: Sequence[int] = (0, 4242),
                  log_every: int = 20,
                  workers: int = 1,
                  audit: bool = False,
                  max_failures: int = 20,
                  restores: float = 0.5) -> Report:
    """Play ``games`` random games in each chance mode and check every
    promise of the move API at every step (see the module documentation).

    ``players``: the player counts to cycle through (default: all the
    ruleset allows).  ``max_moves``: the bound on a game's length (default:
    the ruleset's ``# conformance: max-moves N``, else 10 000).
    ``fresh_games``: games of each mode replayed in fresh processes under
    each of ``hash_seeds`` (0 turns that off).  ``log_every``: every n-th
    game keeps its log (and so checks it too); the rest play with
    ``log=False``, which is much cheaper to save and restore.
    ``workers``: processes to play in (1: this process only; the report is
    the same either way).  ``audit``: watch each game with ``EngineAudit``
    and report what the engine did that it must not (check ``hermetic``).
    ``restores``: in a game that keeps no log, the share of its steps at
    which the state is saved and restored (check ``restore``) besides
    those where its frames wait somewhere they have not waited before in
    that game, and its end (1: every step).
    Stops early after about ``max_failures`` failures."""
    bound = max_moves or declared_max_moves(game) or DEFAULT_MAX_MOVES
    counts = list(players) if players else list(range(game.min_players, game.max_players + 1))
    for n in counts:
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.title} is for {game.min_players} to {game.max_players} "
                             f"players, not {n}")
    for mode in chance:
        if mode not in ("sample", "explicit"):
            raise ValueError(f"chance must be 'sample' or 'explicit', not {mode!r}")
    if not 0 <= restores <= 1:
        raise ValueError(f"restores is a share of the steps, from 0 to 1, not {restores!r}")
    specs = [(mode, i, _spec(game, seed, i, mode, counts, log_every))
             for mode in chance for i in range(games)]
    report = Report(ruleset=game.title, max_moves=bound)
    for mode in chance:
        report.games_by_chance[mode] = 0
    if workers > 1 and len(specs) > 1:
        parts = _in_workers(game, specs, bound, fresh_games, workers, max_failures, audit, restores)
    else:
        parts = [_play_games(game, specs, bound, fresh_games, max_failures, audit, restores)]
    fresh: List[Fresh] = []
    for part in parts:
        report.moves += part["moves"]
        for mode, n in part["games"].items():
            report.games += n
            report.games_by_chance[mode] += n
        report.failures += part["failures"]
        fresh += part["fresh"]
    # The same order however the games were shared out: by mode, then game.
    report.failures.sort(key=lambda f: (list(chance).index(f.chance), f.seed))
    report.failures = report.failures[:max_failures]
    if fresh and hash_seeds:
        report.fresh_process_games = len(fresh)
        _Runner(game, report, bound).fresh_processes(fresh, hash_seeds)
    return report


def _play_games(game: Game, specs: Sequence[Play], bound: int, fresh_games: int, max_failures: int,
                audit: bool = False, restores: float = 0.5) -> Dict[str, Any]:
    """Play these games (``(mode, index, spec)``); the moves made, the games
    played per mode, the failures and the record of the games chosen for
    fresh-process replays."""
    report = Report(ruleset=game.title, max_moves=bound)
    runner = _Runner(game, report, bound, restores)
    played_by_mode: Dict[str, int] = {}
    fresh: List[Fresh] = []
    for mode, i, spec in specs:
        if len(report.failures) >= max_failures:
            break
        if audit:
            with EngineAudit() as watch:
                played = runner.play(spec)
            for event, args, module in watch.events[:5]:
                runner._fail(spec, "hermetic", f"the engine ({module}) made a {event} {args}",
                             played[0] if played else [])
        else:
            played = runner.play(spec)
        played_by_mode[mode] = played_by_mode.get(mode, 0) + 1
        if played is not None and i < fresh_games:
            labels, states = played
            fresh.append((spec, labels, _digests(states)))
    return {"moves": report.moves, "games": played_by_mode, "failures": report.failures,
            "fresh": fresh}


def _in_workers(game: Game, specs: List[Play], bound: int, fresh_games: int, workers: int,
                max_failures: int, audit: bool, restores: float) -> List[Dict[str, Any]]:
    """``_play_games`` in ``workers`` child processes (``python -m
    rulelang.testing play``), the games dealt out in turn."""
    groups = [specs[k::workers] for k in range(workers)]
    procs: List[Child] = []
    for group in groups:
        job = json.loads(_job(game, []))
        job.update(play=[[mode, i, attrs.asdict(spec)] for mode, i, spec in group],
                   bound=bound, fresh_games=fresh_games, max_failures=max_failures,
                   audit=audit, restores=restores)
        procs.append(_child("play", json.dumps(job).encode(), os.environ.get("PYTHONHASHSEED")))
    parts: List[Dict[str, Any]] = []
    for (proc, _), (out, err) in zip(procs, _communicate_all(procs)):
        if proc.returncode != 0:
            raise RuntimeError("a conformance worker failed:\n" + err.decode(errors="replace"))
        part = json.loads(out)
        part["failures"] = [Failure(**{**f, "moves": tuple(f["moves"])}) for f in part["failures"]]
        part["fresh"] = [(_Spec(**spec), labels, digests) for spec, labels, digests in part["fresh"]]
        parts.append(part)
    return parts


def _play_child(job: Dict[str, Any]) -> Dict[str, Any]:
    game = _game_of_job(job)
    specs = [(mode, i, _Spec(**spec)) for mode, i, spec in job["play"]]
    part = _play_games(game, specs, job["bound"], job["fresh_games"], job["max_failures"],
                       job.get("audit", False), job.get("restores", 0.5))
    part["failures"] = [f.to_dict() for f in part["failures"]]
    part["fresh"] = [(attrs.asdict(spec), labels, digests) for spec, labels, digests in part["fresh"]]
    return part


def _spec(game: Game, seed: int, i: int, mode: str, counts: List[int], log_every: int) -> _Spec:
    game_seed = seed + i
    rng = random.Random(game_seed * 2 + (mode == "explicit"))
    options: Optional[Dict[str, Any]] = None
    if game.options and i % 3 == 2:
        # Answer the setup options in advance: a label for everyone, or
        # seat by seat (None: that seat still decides during the game).
        n = counts[i % len(counts)]
        options = {}
        for name, labels in game.options.items():
            if rng.random() < 0.5:
                options[name] = rng.choice(labels)
            else:
                options[name] = [rng.choice(labels + [None]) for _ in range(n)]
    return _Spec(game_seed, counts[i % len(counts)], mode, options,
                 log_every > 0 and i % log_every == 0, rng.getrandbits(32))
