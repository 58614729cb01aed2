"""Conformance testing for rulesets: play random games and check, at every
step, every promise of the move API.

    import rulelang, rulelang.testing
    game = rulelang.load("my_game.rules")
    report = rulelang.testing.check_ruleset(game, games=200, seed=0)
    print(report.format())            # or: rulelang conformance my_game.rules
    assert report.ok, report.format()

``check_ruleset`` plays ``games`` random games in each chance mode ("sample"
and "explicit"), over every player count the ruleset allows, sometimes with
the setup options answered in advance.  At every step it checks:

``legal-moves``
    the game has legal moves unless it is over (and none when it is), their
    labels are unique, and they belong to the player to move;
``chance``
    at a chance node every probability is a ``fractions.Fraction`` above 0,
    the outcomes are distinct, and the probabilities add up to exactly 1;
``restore``
    ``game.restore(state.to_json())`` equals the state and saves to the
    same data (its history and log too);
``clone``
    a clone (of the restored state) equals it, and moving the clone leaves
    the original as it was.  The game goes on from that clone, so a state
    that a restore or a clone got subtly wrong goes on differently, which
    the replay from the seed (below, compared at every step) shows;
``illegal-move``
    moves that are not legal (junk labels, labels legal earlier in the game,
    values that are not moves) raise ``IllegalMoveError`` and change nothing;
``view``
    ``state.view(seat)`` for each seat (and a spectator) is JSON, and it
    shows no deck order and no other seat's hidden cards: a twin state whose
    hidden cards are dealt differently gives the same view;
``hidden``
    nothing else a seat is given identifies a card it may not see: its
    moves and their ``to_dict()`` when it decides, the ``IllegalMoveError``
    message of ``apply(move, player=seat)``, and (in games that keep their
    log) the new log entries as it reads them (``LogEntry.for_seat``), in
    twins that differ only in cards hidden from it: the twin above with the
    move made in it too, a twin whose decks are in another order (sample
    mode, the setup included), and other cards drawn at a draw into a pile
    it may not see (explicit mode).  Entries are compared only where the
    twins agree on what everyone sees (``_public_shape``).  A legal move
    sent by a seat whose decision it is not is refused;
``replay``
    the seed and the list of moves give the same state at every step, in
    this process and in fresh processes under other ``PYTHONHASHSEED``
    values (a game that rolls dice behind the API's back fails this), and
    ``game.replay(state.to_replay())`` gives the state again (checked with
    the restore, at the end and after 0, 1, 4, 16, 64 … moves);
``explicit-agrees``
    feeding explicit mode the chance outcomes that sample mode drew gives
    the same game, step by step;
``length``
    the game ends within ``max_moves`` moves;
``runtime-error`` / ``crash``
    playing never raises (a ``RulesetError`` means the rules ran into a
    limit; anything else is a bug in the engine);
``hermetic`` (with ``audit=True``)
    the engine opens no file, socket or process, imports nothing and reads
    no clock while the games are played (see ``EngineAudit``).

Every failure carries the seed, the player count, the chance mode, the
options and the list of move labels that reproduce it
(``Failure.reproduce()`` writes the Python for it).

Costs.  Every check runs at every step of every game, with four
economies: the views (and the moves and messages a seat is given) are
checked for one seat per step, in turn (the spectator included), so each
seat's view is checked every few steps all through every game, and the
log's hidden-information checks run in the games that keep their log;
the illegal-move probes are two per step (a kind of junk in turn, and a
label that was legal earlier); only every
``log_every``-th game (default 20th) keeps its game log, and as its JSON
grows with every step such a game is saved and restored at fewer steps
(every step up to 50, every second step up to 100, …, and at the end);
and the fresh-process replays run ``fresh_games`` games of each chance
mode (default 2) in one child process per value of ``hash_seeds``
(default two).

A ruleset may declare its own bound on the length of a game with a comment
line ``# conformance: max-moves N``; otherwise the harness's ``max_moves``
(default 10 000) applies.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
import random
import re
import subprocess
import sys
import traceback
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence

import attrs

from .engine import CHANCE, Game, Move, State
from .engine.ops import DrawOp
from .engine.visibility import pile_seen_by, sees
from .errors import IllegalMoveError, RulesetError

__all__ = ["EngineAudit", "Failure", "Report", "check_ruleset", "declared_max_moves", "golden_log",
           "op_by_op"]

DEFAULT_MAX_MOVES = 10_000
_PRAGMA = re.compile(r"^[ \t]*#[ \t]*conformance:[ \t]*max-moves[ \t]+(\d+)[ \t]*$", re.M)


@attrs.frozen
class Failure:
    """One broken promise, with what it takes to see it again."""

    check: str
    message: str
    seed: int
    players: int
    chance: str
    options: Optional[Dict[str, Any]]
    #: The moves (labels) from ``new_game`` up to the failure; when the
    #: failure happened while making a move, that move is the last one.
    moves: tuple
    log: bool = True

    def reproduce(self, ruleset: str = "RULESET") -> str:
        """Python that replays the game up to the failure."""
        return (f"import rulelang\n"
                f"game = rulelang.load({ruleset!r})\n"
                f"state = game.new_game(players={self.players}, seed={self.seed}, "
                f"chance={self.chance!r}, options={self.options!r}, log={self.log})\n"
                f"for label in {list(self.moves)!r}:\n"
                f"    state.apply(label)\n")

    def to_dict(self) -> Dict[str, Any]:
        return attrs.asdict(self, value_serializer=lambda _i, _a, v: list(v) if isinstance(v, tuple) else v)

    def format(self) -> str:
        return (f"FAIL [{self.check}] seed {self.seed}, {self.players} players, "
                f"chance {self.chance}" + (f", options {self.options}" if self.options else "")
                + f", after {len(self.moves)} moves: {self.message}")


@attrs.define
class Report:
    """What ``check_ruleset`` found."""

    ruleset: str
    games: int = 0
    moves: int = 0
    games_by_chance: Dict[str, int] = attrs.Factory(dict)
    fresh_process_games: int = 0
    max_moves: int = DEFAULT_MAX_MOVES
    failures: List[Failure] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def format(self) -> str:
        modes = ", ".join(f"{n} {mode}" for mode, n in self.games_by_chance.items())
        lines = [f"{self.ruleset}: {self.games} games ({modes}), {self.moves} moves, "
                 f"{self.fresh_process_games} replayed in fresh processes, "
                 f"{len(self.failures)} failure{'s' if len(self.failures) != 1 else ''}"]
        for f in self.failures:
            lines.append("  " + f.format())
            moves = list(f.moves)
            if len(moves) > 40:      # all of them are in to_dict() and reproduce()
                lines.append(f"    moves: {repr(moves[:10])[:-1]}, … {len(moves) - 30} more …, "
                             f"{repr(moves[-20:])[1:]}")
            else:
                lines.append(f"    moves: {moves!r}")
        return "\n".join(lines)

    def to_dict(self) -> Dict[str, Any]:
        return {"ruleset": self.ruleset, "games": self.games, "moves": self.moves,
                "games_by_chance": dict(self.games_by_chance),
                "fresh_process_games": self.fresh_process_games, "max_moves": self.max_moves,
                "ok": self.ok, "failures": [f.to_dict() for f in self.failures]}


class _Failed(Exception):
    def __init__(self, check, message):
        super().__init__(message)
        self.check = check
        self.message = message


@attrs.frozen
class _Spec:
    seed: int
    players: int
    chance: str
    options: Optional[Dict[str, Any]]
    log: bool
    pick: int


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
                  max_failures: int = 20) -> Report:
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
    specs = [(mode, i, _spec(game, seed, i, mode, counts, log_every))
             for mode in chance for i in range(games)]
    report = Report(ruleset=game.title, max_moves=bound)
    for mode in chance:
        report.games_by_chance[mode] = 0
    if workers > 1 and len(specs) > 1:
        parts = _in_workers(game, specs, bound, fresh_games, workers, max_failures, audit)
    else:
        parts = [_play_games(game, specs, bound, fresh_games, max_failures, audit)]
    fresh: List[tuple] = []
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


def _play_games(game: Game, specs, bound, fresh_games, max_failures,
                audit=False) -> Dict[str, Any]:
    """Play these games (``(mode, index, spec)``); the moves made, the games
    played per mode, the failures and the record of the games chosen for
    fresh-process replays."""
    report = Report(ruleset=game.title, max_moves=bound)
    runner = _Runner(game, report, bound)
    played_by_mode: Dict[str, int] = {}
    fresh = []
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


def _in_workers(game, specs, bound, fresh_games, workers, max_failures, audit):
    """``_play_games`` in ``workers`` child processes (``python -m
    rulelang.testing play``), the games dealt out in turn."""
    groups = [specs[k::workers] for k in range(workers)]
    procs = []
    for group in groups:
        job = json.loads(_job(game, []))
        job.update(play=[[mode, i, attrs.asdict(spec)] for mode, i, spec in group],
                   bound=bound, fresh_games=fresh_games, max_failures=max_failures,
                   audit=audit)
        procs.append(_child("play", json.dumps(job).encode(), os.environ.get("PYTHONHASHSEED")))
    parts = []
    for (proc, _), (out, err) in zip(procs, _communicate_all(procs)):
        if proc.returncode != 0:
            raise RuntimeError("a conformance worker failed:\n" + err.decode(errors="replace"))
        part = json.loads(out)
        part["failures"] = [Failure(**{**f, "moves": tuple(f["moves"])}) for f in part["failures"]]
        part["fresh"] = [(_Spec(**spec), labels, digests) for spec, labels, digests in part["fresh"]]
        parts.append(part)
    return parts


def _child(command: str, job: bytes, hash_seed: Optional[str]):
    """A ``python -m rulelang.testing COMMAND`` process (and its input),
    able to import this rulelang."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = str(hash_seed)
    proc = subprocess.Popen([sys.executable, "-m", "rulelang.testing", command],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    return proc, job


def _communicate_all(procs, timeout=3600):
    """(stdout, stderr) of every child, all running at once."""
    import concurrent.futures

    def talk(proc_job):
        proc, job = proc_job
        try:
            return proc.communicate(job, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            return out, err + b"\n(timed out)"
    with concurrent.futures.ThreadPoolExecutor(max(1, len(procs))) as pool:
        return list(pool.map(talk, procs))


def _play_child(job: Dict[str, Any]) -> Dict[str, Any]:
    game = _game_of_job(job)
    specs = [(mode, i, _Spec(**spec)) for mode, i, spec in job["play"]]
    part = _play_games(game, specs, job["bound"], job["fresh_games"], job["max_failures"],
                       job.get("audit", False))
    part["failures"] = [f.to_dict() for f in part["failures"]]
    part["fresh"] = [(attrs.asdict(spec), labels, digests) for spec, labels, digests in part["fresh"]]
    return part


def _spec(game, seed, i, mode, counts, log_every):
    game_seed = seed + i
    rng = random.Random(game_seed * 2 + (mode == "explicit"))
    options = None
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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _digests(states: Sequence[State]) -> List[str]:
    """A digest of the state at every step (its saved JSON without the log,
    which grows with every step) and of the whole saved JSON at the end."""
    out = [_digest(json.dumps(st._plain(), separators=(",", ":"))) for st in states]
    out.append(_digest(states[-1].to_json()))
    return out


def _norm(st: State):
    """The state without its chance mode and generator (for comparing a
    sample game with its explicit replay)."""
    return (st.n, st.v, st.g, st.piles, st.stack, st.waiting, st.actor, st.rerolling,
            st.turn_player, st.round, st.order_pos, st.skips, st.test, st.over)


def _log_of(st: State):
    return [(e.round, e.player, e.kind, e.text, e.value, e.public, e.seen_by, e.public_value)
            for e in st.log]


def _new_entries(before: State, after: State) -> list:
    """The log entries ``after`` (a state played on from ``before``) wrote
    since ``before``, oldest first."""
    out = []
    node, stop = after.log_tail, before.log_tail
    while node is not None and node is not stop:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def _given(entries, seat, restricted=False) -> list:
    """The entries as ``seat`` gets them (``LogEntry.for_seat``), as data;
    ``restricted``: only those not everyone may read in full (an entry
    everyone reads may name a card that was in sight when it was written
    and is hidden again since)."""
    return [e.for_seat(seat).to_dict() for e in entries
            if not restricted or e.seen_by is not None]


def _public_shape(st: State, entries, seat):
    """What may legitimately differ between two games that differ only in
    cards hidden from ``seat`` when the rules themselves make them matter
    (a stat, a pile everyone sees, which rule runs next, which kinds of
    entries are written): when two games agree on it, what ``seat`` is
    given of their new entries must agree too.  None when ``seat`` was
    given a card of its own (an entry it alone, or with some others, reads
    in full): the twins then differ in a card it may see."""
    for e in entries:
        if e.seen_by is not None and seat is not None and seat in e.seen_by:
            return None
    return (st.view(seat), [(f[0], f[1]) for f in st.stack],
            [(e.round, e.player, e.kind, e.seen_by) for e in entries])


def _comparable(a: State, a_entries, b: State, b_entries, seat) -> bool:
    shape = _public_shape(a, a_entries, seat)
    return shape is not None and shape == _public_shape(b, b_entries, seat)


def _refusal(st: State, seat) -> str:
    """The message ``seat`` gets for a move that is no move."""
    try:
        st.apply("\x00 not a move", player=seat)
    except IllegalMoveError as e:
        return str(e)
    raise _Failed("illegal-move", f"apply(junk, player={seat!r}) was accepted")


class _Runner:
    def __init__(self, game: Game, report: Report, bound: int):
        self.game = game
        self.report = report
        self.bound = bound
        self.seen_move_sets = set()    # move lists whose to_dict() was checked
        #: (seat, twin): the state of this step with the cards hidden from
        #: that seat dealt differently (``_check_views``), or None
        self.hidden_twin = None

    # ------------------------------------------------------------ one game

    def play(self, spec: _Spec):
        """Play one game with every check; returns (labels, states) — the
        move labels and a clone of the state before each move and at the
        end — or None when the game failed (the failure is reported)."""
        labels: List[str] = []
        try:
            labels, states, outcomes = self._play(spec, labels)
            self._replay(spec, labels, states)
            if spec.chance == "sample":
                self._explicit_agrees(spec, labels, states, outcomes)
            return labels, states
        except _Failed as f:
            self._fail(spec, f.check, f.message, labels)
        except RulesetError as e:
            self._fail(spec, "runtime-error", e.format().splitlines()[0], labels)
        except Exception as e:  # a bug in the engine (or in a ruleset it let through)
            tb = traceback.extract_tb(e.__traceback__)[-1]
            self._fail(spec, "crash", f"{type(e).__name__}: {e} (at {os.path.basename(tb.filename)}:"
                                      f"{tb.lineno})", labels)
        finally:
            self.report.moves += len(labels)
        return None

    def _fail(self, spec, check, message, labels):
        self.report.failures.append(Failure(check, message, spec.seed, spec.players, spec.chance,
                                            spec.options, tuple(labels), spec.log))

    def _play(self, spec: _Spec, labels: List[str]):
        game = self.game
        st = game._new_state(spec.players, spec.seed, spec.chance, spec.options, None, spec.log)
        record = None
        if spec.chance == "sample":
            record = st.chance_record = []
        before = st.clone() if spec.log and spec.chance == "sample" else None
        st._run()
        if before is not None:      # what the setup's draws write
            self._check_shuffled(before, st, _new_entries(before, st), State._run, "in the setup")
        rng = random.Random(spec.pick)
        states: List[State] = []
        outcomes: List[List[str]] = []
        earlier: List[str] = []     # labels legal earlier in the game
        earlier_set = set()
        step = 0
        while True:
            if record is not None:
                outcomes.append(record[:])
                record.clear()
            # ``st`` is never changed after this: it is the record of step k.
            states.append(st)
            moves = self._check_position(st, step, rng)
            if moves is None:
                self._check_restore(st)
                self._check_over(st)
                break
            if len(labels) >= self.bound:
                raise _Failed("length", f"the game did not end within {self.bound} moves")
            if st.current_player == CHANCE:
                move = rng.choices(moves, weights=[float(m.probability) for m in moves])[0]
            else:
                move = rng.choice(moves)
            # Save and restore (at every step; a game that keeps its log,
            # whose JSON grows with every step, at fewer and fewer steps).
            # The game goes on from the restored state, so anything a
            # restore loses shows in the replays.
            if not spec.log or step % (1 + step // 50) == 0:
                restored = self._check_restore(st)
            else:
                restored = st.clone()
            # Illegal moves change nothing.
            legal = {m.label for m in moves}
            self._check_illegal(restored, st, legal, earlier, rng, step)
            # A clone equals the state; moving it leaves the original alone.
            twin = restored.clone()
            if twin != restored:
                raise _Failed("clone", "a clone does not equal the state")
            self._check_atomic(restored, move)
            labels.append(move.label)
            twin.chance_record = record
            twin.apply(move.label)
            if spec.log:
                self._check_new_entries(st, twin, move, moves, restored)
            if restored != st or (spec.log and restored.log_tail is not st.log_tail
                                  and _log_of(restored) != _log_of(st)):
                raise _Failed("clone", f"moving a clone ({move.label!r}) changed the original")
            for m in moves:
                if m.label not in earlier_set:
                    earlier_set.add(m.label)
                    earlier.append(m.label)
            st = twin
            step += 1
        return labels, states, outcomes

    @staticmethod
    def _check_atomic(st: State, move: Move):
        """The move made in a copy whose limits are so tight that most moves
        fail inside ``apply`` (a jump back or a rule called is past them):
        a failed apply leaves the copy exactly as ``st``."""
        probe = st.clone()
        probe.limits = attrs.evolve(probe.limits, max_steps=1, max_depth=max(1, len(probe.stack)))
        try:
            probe.apply(move.label)
        except RulesetError:
            if probe != st or probe.log_tail is not st.log_tail:
                raise _Failed("atomic", f"a failed apply({move.label!r}) changed the state") from None
        except Exception as e:  # noqa: BLE001 - any other exception is an engine bug
            raise _Failed("atomic", f"apply({move.label!r}) past a limit raised "
                                    f"{type(e).__name__} ({e}), not RulesetError") from None

    def _check_position(self, st: State, step: int, rng: random.Random):
        """The legal-moves, chance and view checks; returns the legal moves,
        or None when the game is over."""
        moves = st.legal_moves()
        who = st.current_player
        if st.is_over:
            if moves or who is not None:
                raise _Failed("legal-moves", "the game is over but has legal moves or a player to move")
        else:
            if not moves:
                raise _Failed("legal-moves", "the game is not over but there is no legal move")
            labels = [m.label for m in moves]
            if len(set(labels)) != len(labels):
                dup = sorted({x for x in labels if labels.count(x) > 1})
                raise _Failed("legal-moves", f"move labels are not unique: {dup[:5]}")
            if not all(isinstance(x, str) and x for x in labels):
                raise _Failed("legal-moves", "a move label is empty or not a string")
            if who == CHANCE:
                for m in moves:
                    p = m.probability
                    if not isinstance(p, Fraction) or p <= 0:
                        raise _Failed("chance", f"outcome {m.label!r} has probability {p!r}; "
                                                f"it must be a Fraction above 0")
                    if m.player is not None:
                        raise _Failed("chance", f"chance outcome {m.label!r} belongs to a player")
                # Exactly 1: over a common denominator, in whole numbers.
                whole = math.lcm(*[m.probability.denominator for m in moves])
                total = sum(m.probability.numerator * (whole // m.probability.denominator)
                            for m in moves)
                if total != whole:
                    raise _Failed("chance", f"the probabilities add up to "
                                            f"{Fraction(total, whole)}, not 1")
            else:
                if not (isinstance(who, int) and 0 <= who < st.players):
                    raise _Failed("legal-moves", f"the player to move is {who!r}")
                for m in moves:
                    if m.probability is not None or m.player != who:
                        raise _Failed("legal-moves", f"decision {m.label!r} has probability "
                                                     f"{m.probability!r} and player {m.player!r}")
            key = tuple(labels)
            if key not in self.seen_move_sets:
                try:
                    json.dumps([m.to_dict() for m in moves])
                except (TypeError, ValueError) as e:
                    raise _Failed("legal-moves", f"Move.to_dict() is not JSON: {e}") from None
                if len(self.seen_move_sets) < 100_000:
                    self.seen_move_sets.add(key)
        self._check_views(st, step, rng)
        return None if st.is_over else moves

    def _check_views(self, st: State, step: int, rng: random.Random):
        # One seat per step, in turn (the spectator too): every seat's view
        # is checked every few steps all through the game.
        seats = list(range(st.players)) + [None]
        seat = seats[step % len(seats)]
        self.hidden_twin = None
        view = st.view(seat)
        try:
            json.dumps(view, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise _Failed("view", f"view({seat}) is not JSON: {e}") from None
        twin = _hidden_twin(st, seat, rng)
        if twin is None:
            return
        who = "a spectator" if seat is None else f"seat {seat}"
        theirs = twin.view(seat)
        if view != theirs:
            where = _first_difference(view, theirs)
            raise _Failed("view", f"the view of {who} changes when hidden cards (deck order, "
                                  f"other seats' hidden piles) are dealt differently, at {where}")
        # What else the seat is given: its moves, when it decides (and the
        # message for a move it may not make: ``_check_illegal``).
        if seat is not None and st.current_player == seat:
            mine = [m.to_dict() for m in st.legal_moves(player=seat)]
            if mine != [m.to_dict() for m in twin.legal_moves(player=seat)]:
                raise _Failed("hidden", f"the moves of {who} (their to_dict()) change when the "
                                        f"cards hidden from it are dealt differently")
        self.hidden_twin = (seat, twin)

    def _check_new_entries(self, st: State, after: State, move: Move, moves, origin: State):
        """The log entries a move writes, as each seat gets them, are JSON;
        as the seat whose view was checked gets them, they are the same in
        the twin whose cards hidden from it were dealt differently (when
        the rules did not make those cards matter: ``_public_shape``); and
        at a draw into a pile some seat may not see, that seat gets the same
        entries whichever card is drawn."""
        new = _new_entries(origin, after)    # ``after`` was played on from ``origin``, a copy of ``st``
        for seat in list(range(st.players)) + [None]:
            try:
                json.dumps(_given(new, seat), allow_nan=False)
            except (TypeError, ValueError) as e:
                raise _Failed("hidden", f"a log entry as seat {seat} gets it is not JSON: {e}") from None
        if self.hidden_twin is not None:
            seat, twin = self.hidden_twin
            self.hidden_twin = None
            try:
                twin.apply(move.label)
            except (IllegalMoveError, RulesetError):
                pass    # not a move there, or the rules run differently
            else:
                theirs = _new_entries(st, twin)
                if _comparable(after, new, twin, theirs, seat):
                    mine, other = _given(new, seat, True), _given(theirs, seat, True)
                    if mine != other:
                        self._leak(seat, f"after {move.label!r}", mine, other)
        if st.explicit:
            if st.is_chance_node:
                self._check_draw(st, after, move, moves, new)
            return
        self._check_shuffled(st, after, new, lambda twin: twin.apply(move.label),
                             f"after {move.label!r}")

    def _check_shuffled(self, st: State, after: State, new, advance, when):
        """Sample mode: the same move (``advance``) where only the decks'
        order differs, so that any draw it leads to draws other cards, gives
        every seat the same new entries (when ``_public_shape`` agrees)."""
        twin = _deck_twin(st)
        if twin is None:
            return
        try:
            advance(twin)
        except (IllegalMoveError, RulesetError):
            return
        theirs = _new_entries(st, twin)
        for seat in list(range(st.players)) + [None]:
            if _comparable(after, new, twin, theirs, seat):
                mine, other = _given(new, seat, True), _given(theirs, seat, True)
                if mine != other:
                    self._leak(seat, f"{when} (the decks in another order)", mine, other)

    def _check_draw(self, st: State, after: State, move: Move, moves, new):
        """At a draw into a pile hidden from some seats, other cards drawn
        (up to two more) give those seats the same new entries."""
        fr = st.stack[-1]
        op = st.prog.codes[fr[0]][fr[1]]
        if not isinstance(op, DrawOp) or len(moves) < 2:
            return
        seen = pile_seen_by(st, op.dst(st, fr))
        seats = [s for s in list(range(st.players)) + [None] if not sees(seen, s)]
        if not seats:
            return
        others = [m for m in {id(m): m for m in (moves[0], moves[-1], moves[len(moves) // 2])}.values()
                  if m.label != move.label][:2]
        for other in others:
            alt = st.clone()
            try:
                alt.apply(other.label)
            except RulesetError:
                continue
            theirs = _new_entries(st, alt)
            for seat in seats:
                # The draw's own entry (the first) always; the rest when the
                # rules did not make the card matter.
                mine, their = _given(new, seat), _given(theirs, seat)
                if mine[:1] != their[:1] or (mine != their and
                                             _comparable(after, new, alt, theirs, seat)):
                    self._leak(seat, f"when {move.label!r} rather than {other.label!r}",
                               mine, their)

    def _leak(self, seat, when, mine, theirs):
        who = "a spectator" if seat is None else f"seat {seat}"
        at = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), 0)
        a = mine[at] if at < len(mine) else None
        b = theirs[at] if at < len(theirs) else None
        raise _Failed("hidden", f"the log entries {who} gets {when} depend on cards hidden from it: "
                                f"{a} in one game, {b} in another")

    _JUNK = ("\x00 not a move", None, 7, b"bytes", ("a",), Move("\x01 nor this", None), "")

    def _check_illegal(self, st: State, saved: State, legal, earlier, rng, step):
        # Two probes a step: a kind of junk in turn, and a label that was
        # legal earlier in the game but is not now (as a label or a Move).
        probes: List[Any] = [self._JUNK[step % len(self._JUNK)]]
        stale = [x for x in earlier[-30:] if x not in legal]
        if stale:
            label = rng.choice(stale)
            probes.append(label if rng.random() < 0.5 else Move(label, st.current_player))
        for bad in probes:
            try:
                st.apply(bad)
            except IllegalMoveError:
                continue
            except Exception as e:
                raise _Failed("illegal-move", f"apply({bad!r}) raised {type(e).__name__} "
                                              f"({e}), not IllegalMoveError") from None
            raise _Failed("illegal-move", f"apply({bad!r}) was accepted though it is not legal")
        if st != saved:
            raise _Failed("illegal-move", "an illegal move changed the state")
        # The seat whose view was checked: a legal move sent as its own when
        # it is not its decision is refused, and the message it gets for a
        # move it may not make does not change with the cards hidden from it.
        seats = list(range(st.players)) + [None]
        seat = seats[step % len(seats)]
        if seat != st.current_player and legal:
            label = min(legal)
            try:
                st.apply(label, player=seat)
            except IllegalMoveError:
                pass
            else:
                raise _Failed("illegal-move", f"apply({label!r}, player={seat!r}) was accepted "
                                              f"though it is not that seat's decision")
        if self.hidden_twin is not None and self.hidden_twin[0] == seat:
            mine, theirs = _refusal(st, seat), _refusal(self.hidden_twin[1], seat)
            if mine != theirs:
                who = "a spectator" if seat is None else f"seat {seat}"
                raise _Failed("hidden", f"the message {who} gets for an illegal move changes when "
                                        f"the cards hidden from it are dealt differently: "
                                        f"{mine!r} / {theirs!r}")
        if st != saved:
            raise _Failed("illegal-move", "a move refused to a seat changed the state")

    def _check_restore(self, st: State) -> State:
        text = st.to_json()
        restored = self.game.restore(text)
        if restored != st:
            raise _Failed("restore", "restore(to_json()) does not equal the state")
        # Saved again it gives the same JSON (compared before encoding).
        if restored._plain() != st._plain():
            raise _Failed("restore", "the restored state does not save to the same JSON")
        if st.logging and _log_of(restored) != _log_of(st):
            raise _Failed("restore", "the restored state has another log")
        if restored.history != st.history:
            raise _Failed("restore", "the restored state has another history")
        # The replay form gives the state again (at the end, and when the
        # number of moves is a power of four: a long game is replayed a few
        # times only).
        made = len(st.history)
        if st.is_over or (made & (made - 1) == 0 and made.bit_length() % 2 == 1) or made == 0:
            again = self.game.replay(st.to_replay())
            if again != st or again.history != st.history:
                raise _Failed("replay", "Game.replay(state.to_replay()) does not give the state")
        return restored

    def _check_over(self, st: State):
        text = st.to_json()
        for bad in ("\x00 not a move", "roll 1"):
            try:
                st.apply(bad)
            except IllegalMoveError:
                pass
            except Exception as e:
                raise _Failed("illegal-move", f"a move after the end raised {type(e).__name__}, "
                                              f"not IllegalMoveError") from None
            else:
                raise _Failed("illegal-move", "a move after the end was accepted")
        if st.to_json() != text:
            raise _Failed("illegal-move", "a move after the end changed the state")
        result = st.result()
        if len(result.scores) != st.players or not set(result.winners) <= set(range(st.players)):
            raise _Failed("legal-moves", f"result() is malformed: {result}")
        if result.ending != st.view(None)["over"]:
            raise _Failed("legal-moves", "result().ending is not the ending of the game")

    # ------------------------------------------------------------ replays

    def _replay(self, spec: _Spec, labels, states):
        """The seed and the moves give the same state at every step."""
        st = self.game.new_game(players=spec.players, seed=spec.seed, chance=spec.chance,
                                options=spec.options, log=spec.log)
        for k, label in enumerate(labels):
            if st != states[k]:
                raise _Failed("replay", f"replaying the seed and the moves gives another state "
                                        f"after {k} moves")
            st.apply(label)
        if st != states[-1] or (spec.log and _log_of(st) != _log_of(states[-1])):
            raise _Failed("replay", "replaying the seed and the moves gives another final state")

    def _explicit_agrees(self, spec: _Spec, labels, states, outcomes):
        """Explicit mode, fed the chance outcomes sample mode drew, plays the
        same game."""
        ex = self.game.new_game(players=spec.players, seed=spec.seed, chance="explicit",
                                options=spec.options, log=spec.log)
        for k in range(len(states)):
            if k > 0:
                try:
                    ex.apply(labels[k - 1])
                except IllegalMoveError:
                    raise _Failed("explicit-agrees", f"explicit mode does not allow move "
                                                     f"{labels[k - 1]!r} after {k - 1} moves") from None
            for outcome in outcomes[k]:
                if ex.current_player != CHANCE:
                    raise _Failed("explicit-agrees", f"sample mode drew {outcome!r} where explicit "
                                                     f"mode has no chance node (after {k} moves)")
                try:
                    ex.apply(outcome)
                except IllegalMoveError:
                    raise _Failed("explicit-agrees", f"sample mode drew {outcome!r}, which explicit "
                                                     f"mode does not offer (after {k} moves)") from None
            if ex.current_player == CHANCE:
                raise _Failed("explicit-agrees", f"explicit mode waits for a chance outcome sample "
                                                 f"mode never drew (after {k} moves)")
            if _norm(ex) != _norm(states[k]):
                raise _Failed("explicit-agrees", f"explicit mode fed the sampled outcomes reaches "
                                                 f"another state after {k} moves")
        if spec.log and _log_of(ex) != _log_of(states[-1]):
            raise _Failed("explicit-agrees", "explicit mode fed the sampled outcomes writes another log")

    def fresh_processes(self, fresh, hash_seeds):
        """Replay games in child processes under other PYTHONHASHSEED values
        and compare the state at every step."""
        job = _job(self.game, [(attrs.asdict(spec), labels) for spec, labels, _ in fresh])
        children = [_child("replay", job, h) for h in hash_seeds]
        for h, (proc, _), (out, err) in zip(hash_seeds, children, _communicate_all(children)):
            spec0 = fresh[0][0]
            if proc.returncode != 0:
                self._fail(spec0, "replay", f"the replay process (PYTHONHASHSEED={h}) failed: "
                                            f"{err.decode(errors='replace').strip().splitlines()[-1:]}", [])
                continue
            answer = json.loads(out)
            if answer["fingerprint"] != self.game.fingerprint:
                self._fail(spec0, "replay", f"under PYTHONHASHSEED={h} the ruleset compiles to "
                                            f"another game (fingerprint differs)", [])
                continue
            for (spec, labels, digests), theirs in zip(fresh, answer["digests"]):
                if theirs != digests:
                    k = next((i for i, (a, b) in enumerate(zip(digests, theirs)) if a != b),
                             min(len(digests), len(theirs)))
                    when = f"after {k} moves" if k <= len(labels) else "at the end (with its log)"
                    what = "another state"
                    if k < len(theirs) and theirs[k].startswith("!"):
                        what = f"another game ({theirs[k][1:]})"
                    self._fail(spec, "replay", f"in a fresh process with PYTHONHASHSEED={h} the "
                                               f"seed and moves give {what} {when}",
                               labels[:k])


def _job(game: Game, games) -> bytes:
    rs = game.ruleset
    job: Dict[str, Any] = {"limits": attrs.asdict(game.limits), "games": games}
    if rs.source and not rs.filename.endswith((".json", ".yaml", ".yml")):
        job["source"], job["filename"] = rs.source, rs.filename
    else:
        job["pickle"] = pickle.dumps(rs).hex()
    return json.dumps(job).encode()


def _game_of_job(job: Dict[str, Any]) -> Game:
    from . import api
    from .engine import compile_ruleset
    from .limits import Limits
    limits = Limits(**job["limits"])
    if "source" in job:
        return api.loads(job["source"], job["filename"], limits)
    return Game(compile_ruleset(pickle.loads(bytes.fromhex(job["pickle"])), limits), limits)


def _replay_child(job: Dict[str, Any]) -> Dict[str, Any]:
    game = _game_of_job(job)
    out = []
    for spec, labels in job["games"]:
        st = game.new_game(players=spec["players"], seed=spec["seed"], chance=spec["chance"],
                           options=spec["options"], log=spec["log"])
        states = [st.clone()]
        failed = None
        for label in labels:
            try:
                st.apply(label)
            except (IllegalMoveError, RulesetError) as e:
                failed = f"!{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                break
            states.append(st.clone())
        digests = _digests(states)
        if failed:
            digests[-1] = failed     # in place of the digest of the whole state
        out.append(digests)
    return {"fingerprint": game.fingerprint, "digests": out}


def _hidden_twin(st: State, viewer: Optional[int], rng: random.Random) -> Optional[State]:
    """A clone whose cards hidden from ``viewer`` (every deck, the hidden
    shared piles, other seats' hidden piles) are dealt again at random,
    each pile keeping its size; None when that cannot change anything."""
    prog = st.prog
    hidden = [i for i, name in enumerate(prog.shared_piles)
              if name in prog.deck_names or prog.shared_hidden[i]]
    for j, is_hidden in enumerate(prog.player_hidden):
        if is_hidden:
            hidden += [st.nshared + j * st.n + seat for seat in range(st.n) if seat != viewer]
    pool = [c for i in hidden for c in st.piles[i]]
    if len(pool) < 2:
        return None
    twin = st.clone()
    # Deal them again: reversed and turned by a random amount, so that
    # cards change places (a full shuffle costs more and finds no more).
    pool.reverse()
    k = rng.randrange(1, len(pool))
    pool = pool[k:] + pool[:k]
    at = 0
    for i in hidden:
        k = len(st.piles[i])
        twin.piles[i][:] = pool[at:at + k]
        at += k
    twin._moves = None
    return twin


def _deck_twin(st: State) -> Optional[State]:
    """A clone whose decks hold their cards in another order (turned by
    one), so that its draws take other cards; None when no deck holds two
    kinds of card."""
    prog = st.prog
    decks = [i for i, name in enumerate(prog.shared_piles)
             if name in prog.deck_names and len(set(st.piles[i])) > 1]
    if not decks:
        return None
    twin = st.clone()
    for i in decks:
        pile = twin.piles[i]
        pile.insert(0, pile.pop())
    twin._moves = None
    return twin


def _first_difference(a, b, path="view"):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}[{k!r}]")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path


# ---------------------------------------------------------------- hermetic engine

#: Audit events that a hermetic engine never raises (prefixes).
_WATCHED = ("open", "os.", "shutil.", "socket.", "subprocess.", "import", "time.sleep",
            "urllib.", "http.", "ftplib.", "smtplib.", "ctypes.", "webbrowser.", "glob.",
            "pty.", "mmap.", "sqlite3.")
#: Events under those prefixes that touch nothing outside the process.
_HARMLESS = {"os.putenv", "os.unsetenv"}
_CLOCKS = ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
           "process_time", "process_time_ns", "thread_time", "thread_time_ns", "localtime",
           "gmtime", "ctime", "asctime", "strftime")
_NOT_ENGINE = ("rulelang.testing", "rulelang.cli", "rulelang.__main__")
_audit_state: Dict[str, Any] = {"installed": False, "active": None, "busy": False}


def _in_engine(frame) -> Optional[str]:
    """The first rulelang module (other than the harness and the command
    line) on the stack from ``frame`` up, or None."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith("rulelang") and not name.startswith(_NOT_ENGINE):
            return name
        frame = frame.f_back
    return None


def _audit_hook(event, args):
    if _audit_state is None:        # (the interpreter is shutting down)
        return
    audit = _audit_state["active"]
    if audit is None or not event.startswith(_WATCHED) or event in _HARMLESS \
            or _audit_state["busy"]:
        return
    _audit_state["busy"] = True
    try:
        where = _in_engine(sys._getframe(1))
        if where is None:
            return
        if event == "open" and args and audit.allowed(args):
            return
        audit.events.append((event, repr(args)[:200], where))
    finally:
        _audit_state["busy"] = False


class EngineAudit:
    """While active (``with EngineAudit() as audit:``), records every file
    open, file-system call, socket, subprocess, new import and wall-clock
    read made from inside the engine (any ``rulelang`` module but this
    harness and the command line) into ``audit.events`` as ``(event,
    arguments, module)``.  ``allow_open``: paths the engine may read (the
    ruleset being loaded).

    It uses ``sys.addaudithook`` (a hook, once added, stays for the life
    of the process; it does nothing while no audit is active) and, for the
    clocks, which raise no audit event, wraps the functions of ``time``
    while active.  Warm the engine up first (load a ruleset, make a syntax
    error, play a game): the first use of a library may import modules."""

    def __init__(self, allow_open: Sequence[str] = ()):
        self.allow = {os.path.realpath(os.fspath(p)) for p in allow_open}
        self.events: List[tuple] = []
        self._saved: Dict[str, Any] = {}

    def allowed(self, args) -> bool:
        path, mode = args[0], args[1] if len(args) > 1 else "r"
        if isinstance(path, int) or not isinstance(mode, str) or set(mode) - set("rbt"):
            return False
        try:
            return os.path.realpath(os.fspath(path)) in self.allow
        except (TypeError, ValueError):
            return False

    def __enter__(self) -> "EngineAudit":
        import time
        if _audit_state["active"] is not None:
            raise RuntimeError("an EngineAudit is already active")
        if not _audit_state["installed"]:
            sys.addaudithook(_audit_hook)
            _audit_state["installed"] = True
        for name in _CLOCKS:
            if hasattr(time, name):
                self._saved[name] = getattr(time, name)
                setattr(time, name, self._clock(name, self._saved[name]))
        _audit_state["active"] = self
        return self

    def _clock(self, name, real):
        events = self.events

        def clock(*args):
            if not _audit_state["busy"]:
                _audit_state["busy"] = True
                try:
                    where = _in_engine(sys._getframe(1))
                finally:
                    _audit_state["busy"] = False
                if where is not None:
                    events.append((f"time.{name}", "()", where))
            return real(*args)
        return clock

    def __exit__(self, *exc):
        import time
        _audit_state["active"] = None
        for name, real in self._saved.items():
            setattr(time, name, real)
        self._saved.clear()
        return False

    def format(self) -> str:
        return "\n".join(f"{module}: {event} {args}" for event, args, module in self.events)


# ---------------------------------------------------------------- golden logs


def golden_log(game: Game, players: int, seed: int, chance: str = "sample") -> str:
    """A readable, fixed-seed playthrough: every move, every log entry and
    the result.  Random players pick moves with ``random.Random(seed)``.
    Used by the golden tests (``tests/golden/``)."""
    st = game.new_game(players=players, seed=seed, chance=chance)
    rng = random.Random(seed)
    lines = [f"# {game.title}: {players} players, seed {seed}, chance {chance}; moves picked by "
             f"random.Random({seed})"]
    shown = 0
    moves = 0
    while True:
        log = st.log
        for e in log[shown:]:
            who = "-" if e.player is None else f"P{e.player}"
            lines.append(f"  [{e.round}] {who} {e.kind}: {e.text}")
        shown = len(log)
        if st.is_over:
            break
        legal = st.legal_moves()
        if st.current_player == CHANCE:
            move = rng.choices(legal, weights=[float(m.probability) for m in legal])[0]
            who = "chance"
        else:
            move = rng.choice(legal)
            who = f"P{st.current_player}"
        lines.append(f"> {who}: {move.label}   (of {len(legal)})")
        st.apply(move)
        moves += 1
    r = st.result()
    lines.append(f"= {moves} moves; ending {r.ending!r}; scores {list(r.scores)}; "
                 f"winners {list(r.winners)}")
    return "\n".join(lines) + "\n"


def _main(argv: List[str]) -> int:
    if argv[:1] == ["replay"]:
        job = json.loads(sys.stdin.buffer.read())
        sys.stdout.write(json.dumps(_replay_child(job)))
        return 0
    if argv[:1] == ["play"]:
        job = json.loads(sys.stdin.buffer.read())
        sys.stdout.write(json.dumps(_play_child(job)))
        return 0
    print("usage: python -m rulelang.testing replay|play  (the child processes of "
          "check_ruleset; see 'rulelang conformance')", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))


def op_by_op(game: Game) -> Game:
    """The same game with every rule run one op at a time by the ops' own
    ``run`` methods, instead of by the Python the engine generates from
    them (``rulelang.engine.codegen``): the reference that generated code
    must agree with, move for move (``tests/test_codegen.py``)."""
    from .engine import compile_ruleset
    prog = compile_ruleset(game.ruleset, game.prog.limits)
    prog.runners[:] = [_run_op_by_op] * len(prog.codes)
    return Game(prog, game.limits)


def _run_op_by_op(st, fr):
    """A frame's code, op by op: False when it waits, True when the stack
    changed (as a generated function answers ``State._run``)."""
    from .engine.ops import CODE, PC, RUNAWAY, PureFault, RuleFault
    code = st.prog.codes[fr[CODE]]
    while True:
        pc = fr[PC]
        if pc >= len(code):
            st.stack.pop()
            return True
        op = code[pc]
        try:
            go = op.run(st, fr)
            st.steps += 1
            if st.steps > st.limits.max_steps:
                raise RuleFault(RUNAWAY % st.limits.max_steps)
        except (RulesetError, PureFault):
            raise
        except Exception as e:
            raise PureFault(op.where, e) from e
        if not go:
            return False
        if not st.stack or st.stack[-1] is not fr:
            return True
