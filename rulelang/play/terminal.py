"""``rulelang play``: a game in the terminal that a person can follow.

At each decision of a seat played by a person the screen shows, from that
seat's eyes only: what happened since its last decision (the log as
sentences, and every value of its view that changed, move by move), the
state, who decides what (the choice's title from the rule file, what a die
means, a test's odds) and the numbered options.  Commands: help, log,
state, undo, save FILE, quit.  Bots take the seats given to them
(``--seat K=random``); every bot is made by ``_bot``.  The output is
coloured with rich on a terminal, plain text otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO, Tuple

from ..engine import CHANCE, Game, State
from ..errors import RulesetError, SaveError
from ..players import SPECS
from . import render
from .decision import Decision, describe
from .render import Layout, Line, clip, printable

#: A bot: given the state at its seat's decision, the move it makes.
Bot = Callable[[State], Any]

#: The screen: the whole of one decision fits this many rows (a 40-row terminal, less the prompt).
ROWS = 39
#: The lines of a loaded game's log shown before its first decision.
LOADED_LINES = 12
#: Lines of a log shown by ``log`` without ``all``.
LOG_LINES = 60

HELP = """\
  a number        make that move (the numbers beside the options)
  text            the move whose label starts with it (any case), if only one does
  help            this list
  log [all]       what happened so far, as this seat may read it (the last 60 lines, or all)
  state           the whole state, every piece listed
  undo            take back this seat's last decision (the other players must be bots or agree)
  save FILE       write the game to FILE; go on later with: rulelang play RULES --load FILE
  quit            stop (the seed is printed, to play the same game again)
  A move whose label is a command's word is made by its number."""

COMMANDS = ("help", "log", "state", "undo", "save", "quit", "exit")


def _bot(spec: str, seed: int) -> Bot:
    """The player a ``--seat K=SPEC`` asks for (the one place specs are
    read): any of ``rulelang.players`` (random, greedy, mcts, mcts:N).  An
    unknown spec raises ValueError saying which exist."""
    from ..players import player
    return player(spec, seed).choose


class Screen:
    """Where the player writes: rich on a terminal, plain text otherwise."""

    STYLES = {"title": "bold", "seat": "cyan", "me": "bold yellow", "dim": "dim",
              "change": "green", "warn": "bold red", "option": "", "": ""}

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.console: Any = None
        if out.isatty():
            try:
                from rich.console import Console
            except ImportError:         # (the 'play' extra not installed: plain text)
                return
            self.console = Console(file=out, width=render.WIDTH, highlight=False, markup=False,
                                   emoji=False, soft_wrap=False)

    def lines(self, lines: Sequence[Line]) -> None:
        if self.console is None:
            for line in lines:
                print(printable("".join(text for text, _ in line)), file=self.out)
            self.out.flush()
            return
        from rich.text import Text
        for line in lines:
            t = Text()
            for text, style in line:
                t.append(printable(text), style=self.STYLES.get(style, ""))
            self.console.print(t)

    def say(self, text: str, style: str = "") -> None:
        self.lines([[(line, style)] for line in text.split("\n")])

    def clear(self) -> None:
        """A blank screen (and no scrollback to scroll to), on a terminal."""
        if self.out.isatty():
            self.out.write("\x1b[2J\x1b[3J\x1b[H")
            self.out.flush()


class Table:
    """One game at the terminal: the state, which seats are bots, and for
    each seat played by a person what it has not been shown yet."""

    def __init__(self, game: Game, state: State, bots: Dict[int, Bot], screen: Screen,
                 path: str) -> None:
        self.game, self.state, self.bots, self.screen = game, state, bots, screen
        self.path = path
        self.layout = Layout(state.game)
        self.humans = [s for s in range(state.players) if s not in bots]
        #: per seat played by a person: the lines it has not seen yet, its view flattened
        self.feed: Dict[int, List[Line]] = {h: [] for h in self.humans}
        # What came before: a new game's setup, or a loaded game's latest lines.
        before = state.log if not state.history else state.log[-LOADED_LINES:]
        self.feed = {h: self.told(h, before) for h in self.humans}
        self.flat = {h: render.flatten(state.view(h)) for h in self.humans}
        #: the decisions shown to people, newest last: (seat, the state then, feeds, views)
        self.marks: List[Tuple[int, State, Dict[int, List[Line]], Dict[int, Any]]] = []
        #: the seat whose decision was shown last (hot-seat: ``hand_over``)
        self.last_seat: Optional[int] = None

    # ------------------------------------------------------------ moves

    def apply(self, move: Any) -> None:
        """Make a move, and tell every person what it changed for them."""
        st = self.state
        before = len(st.log)
        st.apply(move)
        new = st.log[before:]
        for h in self.humans:
            feed = self.feed[h]
            feed += self.told(h, new)
            flat = render.flatten(st.view(h))
            for change in render.changes(self.flat[h], flat):
                feed.append([(clip(f"      {change}"), "change")])
            self.flat[h] = flat

    def told(self, seat: int, entries: Sequence[Any]) -> List[Line]:
        """Log entries as lines, as ``seat`` may read them."""
        many = self.state.players > 1
        out: List[Line] = []
        for e in entries:
            text = e.text_for(seat)
            if e.kind == "turn":
                out.append([(text, "title")])
            elif e.kind == "phase":
                out.append([(f"  {text}", "dim")])
            else:
                who = f"P{e.player} · " if many and e.player is not None \
                    and not text.startswith(f"P{e.player} ") else ""
                out.append([(clip(f"  {who}{text}"), "")])
        return out

    def play_bots(self) -> None:
        """Let bots (and chance, in explicit mode) move until a person decides."""
        st = self.state
        while not st.is_over:
            seat = st.current_player
            if seat == CHANCE:
                moves = st.legal_moves()
                weights = [float(m.probability or 0) for m in moves]
                self.apply(random.Random(st.seed + len(st.history)).choices(moves, weights)[0])
            elif seat in self.bots:
                self.apply(self.bots[seat](st))
            else:
                return

    # ------------------------------------------------------------ the screen

    def decision_lines(self, d: Decision) -> List[Line]:
        head = f"P{d.seat} decides: {d.title}"
        lines: List[Line] = [[(clip(head), "me")]]
        lines += [[(clip(f"  {c}"), "dim")] for c in d.context]
        lines += render.option_lines(d.labels, d.notes)
        return lines

    def show(self, seat: int, d: Decision, view: Dict[str, Any]) -> None:
        """One screen: what happened, the state, the decision (within ROWS)."""
        decision = self.decision_lines(d)
        state = render.state_lines(view, self.layout)
        feed = self.feed[seat]
        room = ROWS - len(decision) - 1
        feed_min = min(len(feed), 6) + (1 if feed else 0)
        if len(state) > room - feed_min:
            keep = max(room - feed_min - 1, 3)
            state = state[:keep] + [[("  … ('state' shows the rest)", "dim")]]
        room -= len(state)
        out: List[Line] = []
        feed = collapsed(feed)
        if feed:
            if len(feed) + 1 > room:
                # the first lines (what this seat's own move did) and the latest
                head = min(8, (room - 2) // 2)
                cut = len(feed) - (room - 2)
                feed = feed[:head] + [[(f"  … {cut} lines more ('log' shows them)", "dim")]] \
                    + feed[head + cut:]
            out += [[("— what happened —", "dim")]] + feed
        out += state + decision
        self.screen.lines(out)
        self.feed[seat] = []

    # ------------------------------------------------------------ commands

    def command(self, seat: int, answer: str) -> Optional[str]:
        """Run a command; 'quit' to stop, 'again' to show the decision anew,
        None when ``answer`` is no command."""
        word, _, rest = answer.strip().partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word not in COMMANDS:
            return None
        if word in ("quit", "exit"):
            return "quit"
        if word == "help":
            self.screen.say(HELP)
        elif word == "log":
            lines = [e.text_for(seat) for e in self.state.log_for(seat)]
            if rest.lower() != "all" and len(lines) > LOG_LINES:
                self.screen.say(f"  … {len(lines) - LOG_LINES} earlier lines ('log all' shows them)", "dim")
                lines = lines[-LOG_LINES:]
            self.screen.say("\n".join(clip("  " + x) for x in lines) or "  (nothing yet)")
        elif word == "state":
            view = self.state.view(seat)
            self.screen.lines(render.state_lines(view, self.layout))
            self.screen.say("\n".join(render.full_piece_lines(view, self.layout)))
        elif word == "save":
            self.save(rest)
        elif word == "undo":
            return self.undo(seat)
        return "done"

    def save(self, path: str) -> None:
        if not path:
            self.screen.say("  save needs a file name: save FILE", "warn")
            return
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.state.to_json())
        except OSError as e:
            self.screen.say(f"  {path}: cannot write: {e.strerror}", "warn")
            return
        self.screen.say(f"  saved to {path}; go on with: rulelang play {self.path} --load {path}"
                        + "".join(f" --seat {s}=random" for s in sorted(self.bots)))

    def undo(self, seat: int) -> str:
        """Back to this seat's previous decision, if no other person objects."""
        earlier = [i for i, m in enumerate(self.marks[:-1]) if m[0] == seat]
        if not earlier:
            self.screen.say("  nothing to undo: this is your first decision here", "warn")
            return "done"
        back = earlier[-1]
        others = sorted({m[0] for m in self.marks[back + 1:]} - {seat})
        for other in others:
            try:
                answer = input(f"P{other}, P{seat} asks to take back a move (your decisions since "
                               f"too): agree? [y/n] ")
            except EOFError:
                answer = ""
            if not answer.strip().lower().startswith("y"):
                self.screen.say(f"  P{other} does not agree: nothing undone", "warn")
                return "done"
        _, state, feed, flat = self.marks[back]
        del self.marks[back:]
        self.state = state.clone()
        self.feed = {h: list(v) for h, v in feed.items()}
        self.flat = dict(flat)
        self.screen.say(f"  undone: back to P{seat}'s previous decision", "change")
        return "undone"

    # ------------------------------------------------------------ the loop

    def decide(self, seat: int) -> str:
        """Show ``seat``'s decision and read answers until a move is made
        ('moved'), the game is rewound ('undone') or play stops ('quit')."""
        st = self.state
        moves = st.legal_moves()
        view = st.view(seat)
        d = describe(st, seat, moves, view, self.layout)
        self.marks.append((seat, st.clone(), {h: list(v) for h, v in self.feed.items()}, dict(self.flat)))
        if not self.hand_over(seat):
            return "quit"
        self.show(seat, d, view)
        while True:
            try:
                answer = input(f"P{seat}> ").strip()
            except EOFError:
                self.screen.say("\n(no more input: stopping)")
                return "quit"
            if not answer:
                self.screen.lines(self.decision_lines(d))
                continue
            done = self.command(seat, answer)
            if done == "quit":
                return "quit"
            if done == "undone":
                return "undone"
            if done == "done":
                continue
            move, problem = pick(moves, answer)
            if move is None:
                self.screen.say(f"  {problem}", "warn")
                continue
            self.apply(move)
            return "moved"

    def hand_over(self, seat: int) -> bool:
        """Hot-seat on a terminal: when another person is to decide, the
        screen (with the last seat's hidden cards) is cleared and play waits
        until the new seat says it is alone at the keyboard.  False: no
        more input."""
        last, self.last_seat = self.last_seat, seat
        if len(self.humans) < 2 or last in (None, seat) or not self.screen.out.isatty():
            return True
        self.screen.clear()
        try:
            input(f"Pass the keyboard to P{seat}. P{seat}, press Enter when no one else can see the "
                  f"screen. ")
        except EOFError:
            return False
        self.screen.clear()
        return True

    def run(self) -> int:
        try:
            while True:
                self.play_bots()
                if self.state.is_over:
                    break
                seat = self.state.current_player
                assert seat is not None
                if self.decide(seat) == "quit":
                    self.screen.say(f"stopped at round {self.state.round}; seed {self.state.seed}")
                    return 0
        except KeyboardInterrupt:
            self.screen.say(f"\ninterrupted at round {self.state.round}; seed {self.state.seed}")
            return 130
        except RulesetError as e:
            print(printable(e.format()), file=sys.stderr)
            return 1
        self.finish()
        return 0

    def finish(self) -> None:
        st = self.state
        for h in self.humans[:1]:
            if self.feed[h]:
                self.screen.lines([[("— what happened —", "dim")]] + self.feed[h][-(ROWS - 12):])
        result = st.result()
        lines: List[Line] = [[(f"Game over: {result.ending}", "title")]]
        for seat, score in enumerate(result.scores):
            lines.append([(f"  P{seat}: {score}{'  (winner)' if seat in result.winners else ''}", "")])
        lines.append([(f"seed {st.seed}", "dim")])
        self.screen.lines(lines)


def collapsed(feed: Sequence[Line]) -> List[Line]:
    """The same line said several times in a row, once with ``×N``."""
    out: List[Line] = []
    last, k = None, 0
    for line in list(feed) + [[("", "end")]]:
        if line == last:
            k += 1
            continue
        if last is not None:
            out.append(last if k == 1 else last[:-1] + [(last[-1][0] + f" ×{k}", last[-1][1])])
        last, k = line, 1
    return out


def pick(moves: Sequence[Any], answer: str) -> Tuple[Optional[Any], str]:
    """The move an answer names: its number, its label in any case, or the
    one label it begins; else None and why."""
    text = answer.strip()
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(moves):
            return moves[k - 1], ""
    low = text.lower()
    exact = [m for m in moves if m.label.lower() == low]
    if len(exact) == 1:
        return exact[0], ""
    starts = [m for m in moves if m.label.lower().startswith(low)]
    if len(starts) == 1:
        return starts[0], ""
    if starts:
        shown = ", ".join(m.label for m in starts[:4]) + (", …" if len(starts) > 4 else "")
        return None, clip(f"'{text}' begins {len(starts)} moves ({shown}): type more of one, or its number")
    return None, (f"'{text}' is not one of the moves: type its number (1 to {len(moves)}), "
                  f"the start of its label, or help")


def _auto(state: State, bots: Dict[int, Bot], out: TextIO) -> int:
    """Every seat a bot: print the whole log as it is written, then the result."""
    shown = 0
    try:
        while not state.is_over:
            seat = state.current_player
            if seat == CHANCE:
                moves = state.legal_moves()
                state.apply(random.Random(state.seed + len(state.history)).choices(
                    moves, [float(m.probability or 0) for m in moves])[0])
            else:
                state.apply(bots[seat](state))     # type: ignore[index]
            log = state.log
            for entry in log[shown:]:
                print(printable(entry.text if entry.kind == "turn" else f"  {entry.text}"), file=out)
            shown = len(log)
    except RulesetError as e:
        print(printable(e.format()), file=sys.stderr)
        return 1
    result = state.result()
    print(printable(f"Game over: {result.ending}"), file=out)
    for seat, score in enumerate(result.scores):
        print(f"  P{seat}: {score}{'  (winner)' if seat in result.winners else ''}", file=out)
    print(f"seed {state.seed}", file=out)
    return 0


def _seats(specs: Optional[List[str]], players: int, seed: int) -> Dict[int, Bot]:
    """The bots of ``--seat K=SPEC``; ValueError with one line if one is wrong."""
    bots: Dict[int, Bot] = {}
    for spec in specs or ():
        seat, eq, kind = spec.partition("=")
        if not eq or not seat.strip().isdigit():
            raise ValueError(f"--seat takes K=PLAYER (a seat number, then {SPECS}), not {spec!r}")
        k = int(seat)
        if k >= players:
            raise ValueError(f"--seat {spec}: the seats of this game are 0 to {players - 1}")
        try:
            bots[k] = _bot(kind.strip(), seed + 1 + k)
        except ValueError as e:
            raise ValueError(f"--seat {spec}: {e}") from None
    return bots


def play(game: Game, args: argparse.Namespace, out: Optional[TextIO] = None) -> int:
    """``rulelang play``: a new game (or one loaded), bots where asked."""
    out = sys.stdout if out is None else out
    if args.load:
        try:
            with open(args.load, "rb") as f:
                state = game.restore(f.read())
        except OSError as e:
            print(f"{args.load}: cannot read: {e.strerror}", file=sys.stderr)
            return 1
        except SaveError as e:
            print(printable(f"{args.load}: not a save of this game: {e}"), file=sys.stderr)
            return 1
        if args.players is not None and args.players != state.players:
            print(f"error: --players {args.players}: the saved game has {state.players} players",
                  file=sys.stderr)
            return 2
        if args.seed is not None and args.seed != state.seed:
            print(f"error: --seed {args.seed}: the saved game's seed is {state.seed}", file=sys.stderr)
            return 2
        seed = state.seed
        players = state.players
    else:
        players = game.min_players if args.players is None else args.players
        if not game.min_players <= players <= game.max_players:
            print(printable(f"error: {game.title} is for {game.players_text}, not {players}"), file=sys.stderr)
            return 2
        seed = random.SystemRandom().randrange(1, 1_000_000) if args.seed is None else args.seed
    try:
        bots = _seats(args.seat, players, seed)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.auto:
        bots = {s: bots.get(s) or _bot("random", seed + 1 + s) for s in range(players)}
    if not args.load:
        try:
            state = game.new_game(players=players, seed=seed)
        except (ValueError, RulesetError) as e:
            print(printable(e.format() if isinstance(e, RulesetError) else f"error: {e}"), file=sys.stderr)
            return 1
    seated = ", ".join(f"P{s} {'bot' if s in bots else 'you'}" for s in range(players))
    print(printable(f"{game.title} — {players} player{'s' if players != 1 else ''} ({seated}), seed {seed}"
                    + (f", loaded from {args.load} at round {state.round}" if args.load else "")), file=out)
    if args.auto or len(bots) == players:
        return _auto(state, bots, out)
    if not args.load:
        print("type a number or the start of a move; help lists the commands", file=out)
    return Table(game, state, bots, Screen(out), args.file).run()
