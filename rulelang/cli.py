"""Stage 5: the command line.

    rulelang check FILE...                 find every problem in rule files
    rulelang compile FILE [--format json|yaml] [-o OUT]   write the checked IR
    rulelang validate FILE...              schema + checker for .rules/.json/.yaml
    rulelang play FILE [--players N] [--seed S] [--auto] [--seat K=random] [--param NAME=N]
    rulelang simulate FILE [--games N] [--players N] [--seed S] [--param NAME=N] [--workers N]
    rulelang conformance FILE... [--games N] [--seed S] [--workers N]   check the move API
    rulelang coverage FILE [--games N] [--players N] [--seed S] [--param NAME=N] [--json OUT]
                                           which statements random games reach, which never run
    rulelang dump --python FILE [RULE...]   the Python the engine writes for a ruleset
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from . import api, ir
from .check import check_all
from .engine import CHANCE, Game, State
from .errors import Diagnostic, IllegalMoveError, RulesetCheckError, RulesetError
from .ir import serialize


def _read_ruleset(path: str) -> Tuple[ir.Ruleset, List[Diagnostic]]:
    """(ruleset IR, warnings) from a .rules, .json, .yaml or .yml file;
    raises RulesetError."""
    rs = api.read(path)
    errors, warnings = check_all(rs)
    if errors:
        raise RulesetCheckError(errors)
    return rs, warnings


def cmd_check(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.files:
        try:
            _, warnings = _read_ruleset(path)
        except RulesetError as e:
            bad += 1
            print(e.format(), file=sys.stderr)
            n = len(e.diagnostics)
            print(f"{path}: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
            continue
        except OSError as e:
            bad += 1
            print(f"{path}: cannot read: {e.strerror}", file=sys.stderr)
            continue
        for w in warnings:
            print(w.format(), file=sys.stderr)
        print(f"{path}: ok")
    return 1 if bad else 0


def cmd_compile(args: argparse.Namespace) -> int:
    try:
        rs, _ = _read_ruleset(args.file)
    except RulesetError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{args.file}: cannot read: {e.strerror}", file=sys.stderr)
        return 1
    fmt = args.format
    if fmt is None:
        fmt = "yaml" if args.output and args.output.endswith((".yaml", ".yml")) else "json"
    text = serialize.dumps(rs, fmt)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {args.output}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Schema first (for .json/.yaml), then the static checker."""
    from .validate import validate_file
    bad = 0
    for path in args.files:
        problems = validate_file(path)
        if problems:
            bad += 1
            for d in problems:
                print(d.format(), file=sys.stderr)
            n = len(problems)
            print(f"{path}: {n} error{'s' if n != 1 else ''}", file=sys.stderr)
        else:
            print(f"{path}: valid")
    return 1 if bad else 0


def _load_game(path: str) -> Game:
    """The game in ``path`` (through the cache when ``RULELANG_CACHE`` asks)."""
    return api.load(path)


def _board_drawing(spaces: List[Dict[str, Any]], fields: List[str],
                   steps: Optional[Dict[str, Any]]) -> List[str]:
    """A grid or hex board (its ``steps``: direction -> links) with one
    state value, drawn as rows, north at the top (a hex board's rows
    shifted as its hexagons lie): each space shows its value ('.' for none,
    a player's seat, a word's first letter); [] when the spaces are not
    laid out by x and y (then they are listed)."""
    if not steps or len(fields) != 1 or not spaces:
        return []
    field = fields[0]
    at = {}
    for space in spaces:
        x, y = space.get("x"), space.get("y")
        if type(x) is not int or type(y) is not int or (x, y) in at:
            return []
        at[(x, y)] = space.get(field, "?")
    wide, high = max(x for x, _ in at), max(y for _, y in at)
    if len(at) != wide * high or wide > 26:
        return []
    skew = len(steps) == 6      # (a hex board: six directions)

    def mark(v: Any) -> str:
        if v is None:
            return "."
        if v is True or v is False:
            return "y" if v else "n"
        return str(v)[:1]
    rows = []
    for y in range(high, 0, -1):
        indent = " " * (y - 1) if skew else ""
        rows.append(f"    {y:>2} {indent}" + " ".join(mark(at[(x, y)]) for x in range(1, wide + 1)))
    rows.append("       " + " ".join(chr(ord("a") + i) for i in range(wide)))
    return rows


def _printed(row: Dict[str, Any]) -> str:
    """What a scale prints beside a stat, as ``play`` shows it: ``capacity 40, guide yes``."""
    return ", ".join(f"{k} {'yes' if v is True else 'no' if v is False else v}" for k, v in row.items())


def _summary(state: State, seat: Optional[int]) -> str:
    view = state.view(seat)
    lines = [f"— round {view['round']} —"]
    if view["globals"]:
        scales = view.get("scales", {})
        lines.append("  " + " ".join(f"{k}={v}" + (f" ({_printed(scales[k])})" if scales.get(k) else "")
                                     for k, v in view["globals"].items()))
    prog = state.prog
    for pset, pieces in view["pieces"].items():
        fields = list(prog.piece_slot[pset])
        drawn = _board_drawing(pieces, fields, prog.board_step.get(pset))
        if drawn:
            lines.append(f"  {pset} ({fields[0]}):")
            lines.extend(drawn)
            continue
        lines.append(f"  {pset}:")
        for piece in pieces:
            values = " ".join(f"{f}={piece[f]}" if f in piece else f"{f}=(hidden)" for f in fields)
            lines.append(f"     {piece['name']}: {values}")
    for p in view["players"]:
        scales = p.get("scales", {})      # what a stat's scale prints beside it: porters=8 (capacity 40)
        stats = " ".join(f"{k}={v}" + (f" ({_printed(scales[k])})" if scales.get(k) else "")
                         for k, v in p["stats"].items())
        marker = "*" if p["seat"] == view["turn_player"] else " "
        lines.append(f" {marker}P{p['seat']}: {stats}")
        for name, cards in p["piles"].items():
            if isinstance(cards, list):
                lines.append(f"     {name}: {', '.join(cards) if cards else '(empty)'}")
            else:
                lines.append(f"     {name}: {cards['size']} cards")
    for name, cards in view["piles"].items():
        shown = f"{cards['size']} cards" if isinstance(cards, dict) else (", ".join(cards) or "(empty)")
        lines.append(f"  {name}: {shown}")
    return "\n".join(lines)


def _game_or_report(path: str) -> Optional[Game]:
    """The game in ``path``, or None after printing why it cannot load."""
    try:
        return _load_game(path)
    except RulesetError as e:
        print(e.format(), file=sys.stderr)
    except OSError as e:
        print(f"{path}: cannot read: {e.strerror}", file=sys.stderr)
    return None


def _with_params(game: Game, given: Optional[List[str]]) -> Optional[Game]:
    """``game`` with the ``--param NAME=VALUE`` values given, or None (and
    the reason printed) when they cannot be used."""
    values: Dict[str, int] = {}
    for spec in given or ():
        name, eq, value = spec.partition("=")
        try:
            if not eq:
                raise ValueError(spec)
            values[name] = int(value)
        except ValueError:
            print(f"error: --param takes NAME=NUMBER, not {spec!r}", file=sys.stderr)
            return None
    try:
        return game.with_params(values)
    except (ValueError, RulesetError) as e:
        print(e.format() if isinstance(e, RulesetError) else f"error: {e}", file=sys.stderr)
        return None


def _game_with_params(args: argparse.Namespace) -> Optional[Game]:
    """The game of ``args.file`` made with ``args.param``'s values, or None
    (the problem reported)."""
    game = _game_or_report(args.file)
    return None if game is None else _with_params(game, args.param)


def cmd_play(args: argparse.Namespace) -> int:
    game = _game_with_params(args)
    if game is None:
        return 1
    players = game.min_players if args.players is None else args.players
    robots: Set[int] = set()
    for spec in args.seat or ():
        seat, _, kind = spec.partition("=")
        if kind != "random" or not seat.isdigit():
            print(f"--seat takes K=random, not {spec!r}", file=sys.stderr)
            return 2
        if int(seat) >= players:
            print(f"error: --seat {spec}: the seats of this game are 0 to {players - 1}",
                  file=sys.stderr)
            return 2
        robots.add(int(seat))
    if args.auto:
        robots = set(range(players))
    try:
        state = game.new_game(players=players, seed=args.seed)
    except (ValueError, RulesetError) as e:
        print(e.format() if isinstance(e, RulesetError) else f"error: {e}", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    shown = 0
    out = sys.stdout
    print(f"{game.title} — {players} players" + (f", seed {args.seed}" if args.seed is not None else ""), file=out)
    try:
        while not state.is_over:
            log = state.log
            seat = state.current_player
            if seat in robots or seat == CHANCE:
                for entry in log[shown:]:
                    if args.auto:
                        print(f"  {entry.text}" if entry.kind != "turn" else entry.text, file=out)
                shown = len(log) if args.auto else shown
                state.apply(rng.choice(state.legal_moves()))
                continue
            for entry in log[shown:]:
                print(f"  {entry.text_for(seat)}", file=out)
            shown = len(log)
            print(_summary(state, seat), file=out)
            moves = state.legal_moves()
            print(f"P{seat}, choose:", file=out)
            for i, m in enumerate(moves, 1):
                print(f"  {i:2}. {m.label}", file=out)
            while True:
                try:
                    answer = input("> ").strip()
                except EOFError:
                    print("\n(no more input: stopping)", file=out)
                    return 0
                if answer in ("q", "quit", "exit"):
                    return 0
                if answer.isdigit() and 1 <= int(answer) <= len(moves):
                    state.apply(moves[int(answer) - 1])
                    break
                try:
                    state.apply(answer)
                    break
                except IllegalMoveError:
                    print(f"  '{answer}' is not one of the moves: type its number or its label", file=out)
    except RulesetError as e:
        print(e.format(), file=sys.stderr)
        return 1
    for entry in state.log[shown:]:
        print(f"  {entry.text}", file=out)
    result = state.result()
    print(f"Game over: {result.ending}", file=out)
    for seat, score in enumerate(result.scores):
        print(f"  P{seat}: {score}{'  (winner)' if seat in result.winners else ''}", file=out)
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    game = _game_with_params(args)
    if game is None:
        return 1
    players = game.min_players if args.players is None else args.players
    if not game.min_players <= players <= game.max_players:
        print(f"error: {game.title} is for {game.players_text}, not {players}", file=sys.stderr)
        return 2
    if args.games < 1:
        print(f"error: --games is how many games to play, at least 1, not {args.games}",
              file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"error: --workers is how many processes to play in, at least 1, not {args.workers}",
              file=sys.stderr)
        return 2
    import contextlib

    from .simulate import random_games
    endings: collections.Counter[Optional[str]] = collections.Counter()
    wins = [0.0] * players
    totals = [0] * players
    moves = n = nobody = 0      # (nobody: games no player won, as a winner's 'where' allows)
    interrupted = False
    t0 = time.perf_counter()
    try:
        # The games in seed order, however many processes play them, so
        # every figure but the speed is the same for any --workers.
        with contextlib.closing(random_games(game, players, args.seed, args.games,
                                             args.workers)) as played:
            for made, scores, winners, ending in played:
                moves += made
                n += 1
                endings[ending] += 1
                for s in range(players):
                    totals[s] += scores[s]
                for w in winners:
                    wins[w] += 1 / len(winners)
                nobody += not winners
    except RulesetError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        interrupted = True
    dt = max(time.perf_counter() - t0, 1e-9)
    if n == 0:
        print(f"{game.title}: interrupted before the first game ended", file=sys.stderr)
        return 130
    print(f"{game.title}: {n} random games, {players} player{'s' if players > 1 else ''}, "
          f"seeds {args.seed}..{args.seed + n - 1}"
          + (f" (interrupted: {args.games - n} not played)" if interrupted else ""))
    print(f"  {n / dt:.0f} games/s, {moves / dt:.0f} moves/s, {moves / n:.1f} moves per game")
    # Wins are for a game that scores and has more than one player: alone,
    # the best score is always the player's own, and with no 'score' every
    # seat ties at 0; those games report their endings only.  A winner's
    # 'where' makes them count anyway (a solitaire game won at a target).
    ranked = (bool(game.ruleset.score) and players > 1) or game.ruleset.winner_where is not None
    for s in range(players):
        won = f", wins {100 * wins[s] / n:.1f}%" if ranked else ""
        scored = f"average score {totals[s] / n:.2f}" if game.ruleset.score else "no score"
        print(f"  P{s}: {scored}{won}")
    if ranked and nobody:
        print(f"  nobody wins: {100 * nobody / n:.1f}%")
    for ending, k in endings.most_common():
        print(f"  ending {ending!r}: {100 * k / n:.1f}%")
    return 130 if interrupted else 0


def cmd_conformance(args: argparse.Namespace) -> int:
    """Random games with every promise of the move API checked at every step."""
    from .testing import check_ruleset
    bad = 0
    for path in args.files:
        try:
            game = _load_game(path)
        except RulesetError as e:
            print(e.format(), file=sys.stderr)
            bad += 1
            continue
        except OSError as e:
            print(f"{path}: cannot read: {e.strerror}", file=sys.stderr)
            bad += 1
            continue
        chance = ("sample", "explicit") if args.chance == "both" else (args.chance,)
        t0 = time.perf_counter()
        try:
            report = check_ruleset(game, games=args.games, seed=args.seed, chance=chance,
                                   players=args.players, max_moves=args.max_moves,
                                   fresh_games=args.fresh_games, workers=args.workers,
                                   audit=args.audit)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(dict(report.to_dict(), file=path)))
        else:
            print(f"{path}: " + report.format() + f"  ({time.perf_counter() - t0:.1f}s)")
            for f in report.failures[:3]:
                print(f"\nto reproduce the {f.check} failure of seed {f.seed}:\n"
                      + f.reproduce(path))
        bad += not report.ok
    return 1 if bad else 0


def cmd_coverage(args: argparse.Namespace) -> int:
    """Random games, then every statement, rule, row and choice that never ran."""
    from .testing import coverage
    game = _game_with_params(args)
    if game is None:
        return 1
    if args.games < 1:
        print(f"error: --games is how many games to play, at least 1, not {args.games}",
              file=sys.stderr)
        return 2
    try:
        report = coverage(game, games=args.games, players=args.players, seed=args.seed,
                          chance=args.chance, max_moves=args.max_moves)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json == "-":
        print(json.dumps(dict(report.to_dict(), file=args.file), indent=1))
    else:
        if args.annotate:
            print(report.annotate(game.ruleset.source))
        print(report.format(args.file))
    if args.json not in (None, "-"):
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(dict(report.to_dict(), file=args.file), f, indent=1)
        except OSError as e:
            print(f"{args.json}: cannot write: {e.strerror}", file=sys.stderr)
            return 1
    if args.fail_if_unreached and (not report.complete or report.errors):
        return 1
    return 0


def cmd_dump(args: argparse.Namespace) -> int:
    """Print the generated Python of every code (setup, the turn, each rule,
    table, option and reaction), or of those named."""
    from .engine import codegen
    game = _game_or_report(args.file)
    if game is None:
        return 1
    prog = game.prog
    wanted = set(args.names)
    codes = [k for k, name in enumerate(prog.code_names)
             if not wanted or name in wanted or name.split(" ", 1)[-1] in wanted
             or codegen.function_name(name) in wanted]
    if not codes:
        known = ", ".join(name.split(" ", 1)[-1] for name in prog.code_names)
        print(f"{args.file}: no code named {', '.join(sorted(wanted))}; there are: {known}",
              file=sys.stderr)
        return 1
    for k in codes:
        text = codegen.source_of(prog, k)
        print(f"# ---- {prog.code_names[k]}")
        print(text if text is not None else "# (too long for one function: run op by op)\n")
    return 0


def cmd_fmt(args: argparse.Namespace) -> int:
    from .syntax import fmt
    return fmt.run(args.files, args.check, sys.stdin, sys.stdout, sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rulelang", description="Check, compile, play and simulate rulelang rule files.")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="report every problem in rule files")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.set_defaults(func=cmd_check)
    c = sub.add_parser("fmt", help="lay rule files out in the one canonical layout (in place; '-': stdin to stdout)")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--check", action="store_true", help="change nothing; list the files that would change "
                                                       "and exit with status 1 if there are any")
    c.set_defaults(func=cmd_fmt)
    c = sub.add_parser("compile", help="write the checked ruleset as JSON or YAML")
    c.add_argument("file", metavar="FILE")
    c.add_argument("-o", "--output", metavar="OUT", help="the file to write (default: standard output)")
    c.add_argument("--format", choices=["json", "yaml"],
                   help="json or yaml (default: from OUT's extension, else json)")
    c.set_defaults(func=cmd_compile)
    c = sub.add_parser("validate", help="validate rulesets (.rules, .json, .yaml) against the schema and the checker")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.set_defaults(func=cmd_validate)
    c = sub.add_parser("play", help="play in the terminal")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--players", type=int)
    c.add_argument("--seed", type=int)
    c.add_argument("--auto", action="store_true", help="random players in every seat; print the log")
    c.add_argument("--seat", action="append", metavar="K=random", help="let a random player take seat K")
    c.add_argument("--param", action="append", metavar="NAME=N", help="give a parameter a value")
    c.set_defaults(func=cmd_play)
    c = sub.add_parser("simulate", help="play many random games and summarise them")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--players", type=int)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--param", action="append", metavar="NAME=N", help="give a parameter a value")
    c.add_argument("--workers", type=int, default=1, metavar="N",
                   help="processes to play in (default 1; the figures are the same for any N)")
    c.set_defaults(func=cmd_simulate)
    c = sub.add_parser("conformance", help="play random games checking every promise of the move API")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--games", type=int, default=200, help="games per chance mode (default 200)")
    c.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    c.add_argument("--chance", choices=["both", "sample", "explicit"], default="both")
    c.add_argument("--players", type=int, action="append", metavar="N",
                   help="play with N players (repeatable; default: every count allowed)")
    c.add_argument("--max-moves", type=int, metavar="N",
                   help="a game must end within N moves (default: the ruleset's "
                        "'# conformance: max-moves N', else 10000)")
    c.add_argument("--fresh-games", type=int, default=2, metavar="N",
                   help="games per mode replayed in fresh processes under other "
                        "PYTHONHASHSEED values (default 2)")
    c.add_argument("--workers", type=int, default=1, metavar="N", help="processes to play in")
    c.add_argument("--audit", action="store_true",
                   help="also report file, network, process, import and clock use by the engine")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.set_defaults(func=cmd_conformance)
    c = sub.add_parser("coverage", help="play random games and report the statements, rules, "
                                        "rows and choices that never ran")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    c.add_argument("--players", type=int, action="append", metavar="N",
                   help="play with N players (repeatable; default: every count allowed, in turn)")
    c.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    c.add_argument("--param", action="append", metavar="NAME=N", help="give a parameter a value")
    c.add_argument("--chance", choices=["sample", "explicit"], default="sample",
                   help="dice and draws sampled (default), or chance moves picked by their "
                        "probabilities")
    c.add_argument("--max-moves", type=int, metavar="N",
                   help="stop a game after N moves (default: the ruleset's "
                        "'# conformance: max-moves N', else 10000)")
    c.add_argument("--json", metavar="OUT", help="also write the whole report as JSON to OUT "
                                                 "('-': print only that)")
    c.add_argument("--annotate", action="store_true",
                   help="first print the rule file with each statement line's count")
    c.add_argument("--fail-if-unreached", action="store_true",
                   help="exit with status 1 when something never ran (or a game failed)")
    c.set_defaults(func=cmd_coverage)
    c = sub.add_parser("dump", help="print what the engine makes of a ruleset")
    c.add_argument("--python", action="store_true", required=True,
                   help="the Python written for each rule (the only form so far)")
    c.add_argument("file", metavar="FILE")
    c.add_argument("names", nargs="*", metavar="RULE",
                   help="only these (a rule, table or option name, 'setup', 'turn')")
    c.set_defaults(func=cmd_dump)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
