"""``rulelang simulate``: the balance report from the command line."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from typing import Any, Callable, Dict, Optional, Tuple

from ..engine import Game
from ..errors import RulesetError
from ..players import SPECS, player
from ..show import terminal
from ..version import __version__
from .play import DEFAULT_MAX_MOVES, Setup, is_ranked
from .run import Progress, Run, run
from .stats import figures
from .text import format_report


class BadArgument(Exception):
    """One clear line for a bad argument (exit status 2)."""


def add_arguments(c: argparse.ArgumentParser) -> None:
    c.add_argument("file", metavar="FILE")
    c.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    c.add_argument("--players", type=int)
    c.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    c.add_argument("--param", action="append", metavar="NAME=N", help="give a parameter a value")
    c.add_argument("--seat", action="append", metavar="K=PLAYER",
                   help=f"who plays seat K (random by default): {SPECS}")
    c.add_argument("--won", metavar="ENDING",
                   help="for a game played alone: the ending that counts as a win")
    c.add_argument("--workers", type=int, default=1, metavar="N",
                   help="processes to play in (default 1; the figures are the same for any N)")
    c.add_argument("--dask", metavar="ADDRESS",
                   help="play on a Dask cluster (its scheduler's address, or 'local' to start one)")
    c.add_argument("--max-moves", type=int, metavar="N",
                   help=f"stop a game after N moves (default {DEFAULT_MAX_MOVES})")
    c.add_argument("--no-firing", action="store_true",
                   help="do not count the rules that fire (each game is then played once, not twice)")
    c.add_argument("--json", metavar="FILE", help="write every figure, the command and the seed as JSON")
    c.add_argument("--html", metavar="FILE", help="write a self-contained HTML report with plots")
    c.add_argument("--png", metavar="DIR", help="write the report's plots as PNG files into DIR")


def _seats(args: argparse.Namespace, players: int) -> Tuple[str, ...]:
    seats = ["random"] * players
    for spec in args.seat or ():
        k, eq, kind = spec.partition("=")
        if not eq or not k.strip().isdigit():
            raise BadArgument(f"--seat takes K=PLAYER (say 0=mcts:200), not {spec!r}")
        seat = int(k)
        if seat >= players:
            raise BadArgument(f"--seat {spec}: there is no seat {seat}: the seats of this "
                              f"{players}-player game are 0 to {players - 1}")
        try:
            seats[seat] = player(kind).name
        except ValueError as e:
            raise BadArgument(f"--seat {spec}: {e}") from None
    return tuple(seats)


def _command(args: argparse.Namespace) -> str:
    """The command that repeats this run (with every default spelled out)."""
    parts = ["rulelang", "simulate", args.file, "--games", str(args.games), "--seed", str(args.seed)]
    if args.players is not None:
        parts += ["--players", str(args.players)]
    for p in args.param or ():
        parts += ["--param", p]
    for s in args.seat or ():
        parts += ["--seat", s]
    if args.won:
        parts += ["--won", args.won]
    if args.max_moves:
        parts += ["--max-moves", str(args.max_moves)]
    if args.no_firing:
        parts.append("--no-firing")
    return shlex.join(parts)


def _progress() -> Tuple[Optional[Progress], Callable[[], None]]:
    """A progress bar with an estimate on a terminal (rich's when it is
    installed, a plain line otherwise); nothing when stderr is not one."""
    if not sys.stderr.isatty():
        return None, lambda: None
    try:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar,
                                   TimeElapsedColumn, TimeRemainingColumn)
    except ImportError:
        t0 = time.perf_counter()

        def plain(done: int, total: int) -> None:
            spent = time.perf_counter() - t0
            left = spent / done * (total - done) if done else 0.0
            sys.stderr.write(f"\r  {done}/{total} games, about {left:.0f}s left   ")
            sys.stderr.flush()
        def clear() -> None:
            sys.stderr.write("\r" + " " * 50 + "\r")
        return plain, clear
    bar = Bar("games", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
              TimeRemainingColumn(), transient=True)
    bar.start()
    task = bar.add_task("games", total=None)

    def fancy(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)
    return fancy, bar.stop


def simulate(args: argparse.Namespace, game: Game) -> int:
    """Run the report for ``game`` (already made with ``--param``'s values)."""
    try:
        players = game.min_players if args.players is None else args.players
        if not game.min_players <= players <= game.max_players:
            raise BadArgument(f"{game.title} is for {game.players_text}, not {players}")
        if args.games < 1:
            raise BadArgument(f"--games is how many games to play, at least 1, not {args.games}")
        if args.workers < 1:
            raise BadArgument(f"--workers is how many processes to play in, at least 1, "
                              f"not {args.workers}")
        if args.max_moves is not None and args.max_moves < 1:
            raise BadArgument(f"--max-moves is at least 1, not {args.max_moves}")
        if args.won is not None and players != 1:
            raise BadArgument("--won names the winning ending of a game played alone; "
                              f"this one has {players} players, whose wins the ruleset decides")
        seats = _seats(args, players)
    except BadArgument as e:
        print(terminal(f"error: {e}"), file=sys.stderr)
        return 2
    from ..testing.conformance import declared_max_moves
    setup = Setup(players=players, seats=seats, won=args.won,
                  max_moves=args.max_moves or declared_max_moves(game) or DEFAULT_MAX_MOVES,
                  firing=not args.no_firing)
    tell, done = _progress()
    try:
        result = run(game, setup, args.seed, args.games, args.workers, args.dask, tell)
    except ValueError as e:
        done()
        print(terminal(f"error: {e}"), file=sys.stderr)
        return 2
    except RulesetError as e:
        done()
        print(e.format(), file=sys.stderr)
        return 1
    done()
    return _report(args, game, setup, result)


def _report(args: argparse.Namespace, game: Game, setup: Setup, result: Run) -> int:
    t = result.tally
    n = t.games
    if n == 0 and not t.errors:
        print(terminal(f"{game.title}: interrupted before the first game ended"), file=sys.stderr)
        return 130
    f = figures(t, is_ranked(game, setup), bool(game.ruleset.score), setup.seats)
    kind = "random " if set(setup.seats) == {"random"} else ""
    who = "local" if result.backend == "local" else result.backend
    where = (f"{result.workers} worker{'s' if result.workers != 1 else ''}" if who == "local" else who)
    header = [
        f"{game.title}: {n} {kind}games, {setup.players} player{'s' if setup.players > 1 else ''}, "
        f"seeds {args.seed}..{args.seed + args.games - 1}"
        + (f" (interrupted: {args.games - n - len(t.errors)} not played)" if result.interrupted else ""),
        f"  {n / max(result.seconds, 1e-9):.1f} games/s, {result.seconds / max(n, 1):.4f} s a game, "
        f"{sum(k * v for k, v in t.length.items()) / max(n, 1):.1f} moves per game ({where})",
        "  seats: " + ", ".join(f"P{s} {spec}" for s, spec in enumerate(setup.seats))
        + (f"; a win is the ending {setup.won!r}" if setup.won else ""),
    ]
    text = format_report(f, header)
    print(terminal(text))
    doc: Dict[str, Any] = {
        "rulelang": __version__, "command": _command(args), "file": args.file, "game": game.title,
        "seed": args.seed, "games_asked": args.games, "seats": list(setup.seats),
        "won": setup.won, "params": {k: v["value"] for k, v in game.params.items()},
        "interrupted": result.interrupted, "seconds": result.seconds,
        "backend": result.backend, "workers": result.workers,
        "figures": f, "tally": t.to_dict(), "text": text,
    }
    status = 130 if result.interrupted else (1 if t.errors else 0)
    for path, write in ((args.json, _write_json), (args.html, _write_html), (args.png, _write_png)):
        if path:
            try:
                write(path, doc)
            except OSError as e:
                print(f"{path}: cannot write: {e.strerror or e}", file=sys.stderr)
                status = status or 1
            except ValueError as e:     # (a plot matplotlib refused)
                print(terminal(f"{path}: cannot draw the report: {e}"), file=sys.stderr)
                status = status or 1
            except ImportError as missing:
                print(f"error: {missing}", file=sys.stderr)
                status = status or 2
    for failed in t.errors[:3]:
        print(terminal(f"rule error in {failed}"), file=sys.stderr)
    return status


def _write_json(path: str, doc: Dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(doc, out, indent=1)


def _write_html(path: str, doc: Dict[str, Any]) -> None:
    from .html import html_report
    text = html_report(doc)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def _write_png(folder: str, doc: Dict[str, Any]) -> None:
    from .html import write_pngs
    write_pngs(folder, doc)
