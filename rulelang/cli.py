"""Stage 5: the command line.

    rulelang check FILE...                 find every problem in rule files
    rulelang fmt [--check] FILE...         lay rule files out in the one canonical layout
    rulelang compile FILE [--format json|yaml] [-o OUT]   write the checked IR
    rulelang validate FILE...              schema + checker for .rules/.json/.yaml
    rulelang play FILE [--players N] [--seed S] [--auto] [--seat K=PLAYER] [--param NAME=N] [--load SAVE]
    rulelang simulate FILE [--games N] [--players N] [--seed S] [--param NAME=N] [--workers N]
                      [--seat K=PLAYER] [--won ENDING] [--dask ADDRESS] [--json F] [--html F] [--png DIR]
    rulelang odds FILE [--phase NAME] [--moves LABEL...] [--set STAT=N] [--vary STAT=LOW..HIGH]
                                           exact chances of the rows and tests ahead of a position
    rulelang conformance FILE... [--games N] [--seed S] [--workers N]   check the move API
    rulelang coverage FILE [--games N] [--players N] [--seed S] [--param NAME=N] [--json OUT]
                                           which statements random games reach, which never run
    rulelang dump --python FILE [RULE...]   the Python the engine writes for a ruleset
    rulelang serve FILE... [--host H] [--port P] [--db games.sqlite]   a web table (docs/serve.md)
    rulelang lsp                           the language server, over stdin/stdout (extra 'lsp')
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from typing import Callable, Dict, List, Optional, Tuple

from . import api, ir
from .check import check_all
from .engine import Game
from .errors import Diagnostic, RulesetCheckError, RulesetError
from .show import terminal


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
        print(terminal(f"{path}: ok"))
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
    from .ir import serialize
    text = serialize.dumps(rs, fmt)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(terminal(f"wrote {args.output}"))
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
            print(terminal(f"{path}: valid"))
    return 1 if bad else 0


def _game_or_report(path: str) -> Optional[Game]:
    """The game in ``path``, or None after printing why it cannot load."""
    try:
        return api.load(path)
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
        print(e.format() if isinstance(e, RulesetError) else terminal(f"error: {e}"), file=sys.stderr)
        return None


def _game_with_params(args: argparse.Namespace) -> Optional[Game]:
    """The game of ``args.file`` made with ``args.param``'s values, or None
    (the problem reported)."""
    game = _game_or_report(args.file)
    return None if game is None else _with_params(game, args.param)


def cmd_play(args: argparse.Namespace) -> int:
    """A game at the terminal (rulelang/play/terminal.py)."""
    game = _game_with_params(args)
    if game is None:
        return 1
    from .play.terminal import play
    return play(game, args)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many games (random or built-in players) and print the balance report."""
    from .balance.command import simulate
    game = _game_with_params(args)
    return 1 if game is None else simulate(args, game)


def cmd_odds(args: argparse.Namespace) -> int:
    """Exact chances from a position, through explicit chance."""
    from .balance import odds
    game = _game_with_params(args)
    return 1 if game is None else odds.command(args, game)


def cmd_conformance(args: argparse.Namespace) -> int:
    """Random games with every promise of the move API checked at every step."""
    from .testing import check_ruleset
    bad = 0
    for path in args.files:
        try:
            game = api.load(path)
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
            print(terminal(f"error: {e}"), file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(dict(report.to_dict(), file=path)))
        else:
            print(terminal(f"{path}: " + report.format() + f"  ({time.perf_counter() - t0:.1f}s)"))
            for f in report.failures[:3]:
                print(terminal(f"\nto reproduce the {f.check} failure of seed {f.seed}:\n"
                               + f.reproduce(path)))
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
        print(terminal(f"error: {e}"), file=sys.stderr)
        return 2
    if args.json == "-":
        print(json.dumps(dict(report.to_dict(), file=args.file), indent=1))
    else:
        if args.annotate:
            print(terminal(report.annotate(game.ruleset.source)))
        print(terminal(report.format(args.file)))
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
        print(terminal(f"{args.file}: no code named {', '.join(sorted(wanted))}; there are: {known}"),
              file=sys.stderr)
        return 1
    for k in codes:
        text = codegen.source_of(prog, k)
        print(terminal(f"# ---- {prog.code_names[k]}"))
        print(terminal(text) if text is not None else "# (too long for one function: run op by op)\n")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import run
    if not 0 < args.port < 65536:
        print(f"--port must be from 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    return run(args.files, args.host, args.port, args.db)


def cmd_fmt(args: argparse.Namespace) -> int:
    from .syntax import fmt
    return fmt.run(args.files, args.check, sys.stdin, sys.stdout, sys.stderr)


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The command line.  Given ``command`` (the one being run), the
    arguments of another command that a module of its own defines (play's
    players, simulate's, odds') are left out, and so is that module:
    ``rulelang check`` does not import the simulator, ``multiprocessing``,
    ``fractions``… (17 ms of every command's start)."""
    def wanted(name: str) -> bool:
        return command is None or command == name

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
    if wanted("play"):
        from .players import SPECS
        c.add_argument("--seat", action="append", metavar="K=PLAYER",
                       help=f"let a player take seat K: {SPECS}")
    c.add_argument("--load", metavar="SAVE", help="go on with a game saved by the 'save' command")
    c.add_argument("--param", action="append", metavar="NAME=N", help="give a parameter a value")
    c.set_defaults(func=cmd_play)
    c = sub.add_parser("simulate", help="play many games and report on the game's balance")
    if wanted("simulate"):
        from .balance.command import add_arguments as simulate_arguments
        simulate_arguments(c)
    c.set_defaults(func=cmd_simulate)
    c = sub.add_parser("odds", help="exact chances of the table rows and tests ahead of a position")
    if wanted("odds"):
        from .balance.odds import add_arguments as odds_arguments
        odds_arguments(c)
    c.set_defaults(func=cmd_odds)
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
    c = sub.add_parser("serve", help="a multiplayer web table for rule files (docs/serve.md)")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--host", default="127.0.0.1")
    c.add_argument("--port", type=int, default=8000)
    c.add_argument("--db", default="games.sqlite", help="the SQLite file that keeps the games")
    c.set_defaults(func=cmd_serve)
    c = sub.add_parser("lsp", help="the language server for editors, over stdin and stdout")
    c.add_argument("--stdio", action="store_true", help="(the default and only transport)")
    c.set_defaults(func=cmd_lsp)
    return p


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from .lsp import server
    except ImportError as e:
        print(f"rulelang lsp needs pygls ({e}): pip install 'rulelang[lsp]'", file=sys.stderr)
        return 1
    return server.main()


def main(argv: Optional[List[str]] = None) -> int:
    if argv is None:
        # The command owns its process: what the imports made lives until
        # it ends, and no collection need walk it again, the one at exit
        # included (the library leaves this to the program that imports it).
        gc.freeze()
    words = sys.argv[1:] if argv is None else argv
    command = words[0] if words and not words[0].startswith("-") else None
    args = build_parser(command).parse_args(argv)
    try:
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
