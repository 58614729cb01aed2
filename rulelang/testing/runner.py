"""One conformance game played with every check at every step (``_Runner``),
and the twins the hidden-information checks compare it with."""

from __future__ import annotations

import json
import math
import os
import random
import traceback
from fractions import Fraction
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Set, Tuple

import attrs

from ..engine import CHANCE, Game, Move, State
from ..engine.kinds import St
from ..engine.ops import DrawOp
from ..engine.visibility import pile_seen_by, sees
from ..errors import IllegalMoveError, RulesetError, SaveError
from .twins import _alternatives, _deck_twin, _hidden_differ, _hidden_twin, _new_entries
from .processes import _child, _communicate_all, _job
from .report import Failure, Fresh, Report, _Failed, _Spec

# A state is ``St`` here, as in the engine (``Any`` to mypy), and what it
# hands out (its moves, its log entries) ``Any``: ``State`` and ``Move`` are
# slotted classes that declare no types for their slots, and the harness
# reads those (the state's internals too) all through.


def _norm(st: St) -> Tuple[Any, ...]:
    """The state without its chance mode and generator (for comparing a
    sample game with its explicit replay)."""
    return (st.n, st.v, st.g, st.piles, st.stack, st.waiting, st.actor, st.rerolling,
            st.turn_player, st.round, st.order_pos, st.skips, st.test, st.over)


def _log_of(st: St) -> List[Tuple[Any, ...]]:
    return [(e.round, e.player, e.kind, e.text, e.value, e.public, e.seen_by, e.public_value)
            for e in st.log]


def _given(entries: Sequence[Any], seat: Optional[int], restricted: bool = False) -> List[Any]:
    """The entries as ``seat`` gets them (``LogEntry.for_seat``), as data;
    ``restricted``: only those not everyone may read in full (an entry
    everyone reads may name a card that was in sight when it was written
    and is hidden again since)."""
    return [e.for_seat(seat).to_dict() for e in entries
            if not restricted or e.seen_by is not None]


def _public_shape(st: St, entries: Sequence[Any], seat: Optional[int]) -> Optional[Tuple[Any, ...]]:
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


def _comparable(a: St, a_entries: Sequence[Any], b: St, b_entries: Sequence[Any],
                seat: Optional[int]) -> bool:
    shape = _public_shape(a, a_entries, seat)
    return shape is not None and shape == _public_shape(b, b_entries, seat)


def _refusal(st: St, seat: Optional[int]) -> str:
    """The message ``seat`` gets for a move that is no move."""
    try:
        st.apply("\x00 not a move", player=seat)
    except IllegalMoveError as e:
        return str(e)
    raise _Failed("illegal-move", f"apply(junk, player={seat!r}) was accepted")


def _replayed_at(made: int) -> bool:
    """Whether a state after ``made`` moves is also replayed from its
    ``to_replay()`` (after 0, 1, 4, 16, 64 … moves: a long game a few
    times only)."""
    return made == 0 or (made & (made - 1) == 0 and made.bit_length() % 2 == 1)


class _Runner:
    def __init__(self, game: Game, report: Report, bound: int, restores: float = 0.5) -> None:
        self.game = game
        self.report = report
        self.bound = bound
        self.restores = restores
        self.seen_move_sets: Set[Tuple[str, ...]] = set()    # move lists whose to_dict() was checked
        #: (seat, twin): the state of this step with the cards hidden from
        #: that seat dealt differently (``_check_views``), or None
        self.hidden_twin: Optional[Tuple[Optional[int], St]] = None
        #: (limits, depth) -> the limits of ``_check_atomic``'s copies
        self._tight_limits: Dict[Tuple[Any, int], Any] = {}

    # ------------------------------------------------------------ one game

    def play(self, spec: _Spec) -> Optional[Tuple[List[str], List[St]]]:
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

    def _fail(self, spec: _Spec, check: str, message: str, labels: Sequence[str]) -> None:
        self.report.failures.append(Failure(check, message, spec.seed, spec.players, spec.chance,
                                            spec.options, tuple(labels), spec.log))

    def _play(self, spec: _Spec, labels: List[str]) -> Tuple[List[str], List[St], List[List[str]]]:
        game = self.game
        st: St = game._new_state(spec.players, spec.seed, spec.chance, spec.options, None, spec.log)
        record: Optional[List[str]] = None
        if spec.chance == "sample":
            record = st.chance_record = []
        before = st.clone() if spec.log and spec.chance == "sample" else None
        st._run()
        if before is not None:      # what the setup's draws write
            self._check_shuffled(before, st, _new_entries(before, st), State._run, "in the setup")
        rng = random.Random(spec.pick)
        # Which steps are saved and restored: a generator of the game's own,
        # so that the moves picked are the same whatever is restored.
        restore_rng = random.Random(spec.pick ^ 0x5A7E5)
        layouts: Set[Any] = set()     # where the frames have waited at a step restored
        states: List[St] = []
        outcomes: List[List[str]] = []
        earlier: List[str] = []     # labels legal earlier in the game
        earlier_set: Set[str] = set()
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
            # Save and restore: at every step where the frames wait
            # somewhere they have not waited at a step restored in this
            # game, and at a share (``restores``) of the other steps picked
            # at random, so no kind of step is left out; a game that keeps
            # its log, whose JSON grows with every step, at fewer and fewer
            # steps.  The game goes on from the restored state, so anything
            # a restore loses shows in the replays.
            if spec.log:
                due = step % (1 + step // 50) == 0
            else:
                layout = (st.waiting, st.rerolling, tuple((fr[0], fr[1]) for fr in st.stack))
                due = layout not in layouts or _replayed_at(len(labels)) or \
                    restore_rng.random() < self.restores
                if due:
                    layouts.add(layout)
            if due:
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
            labels.append(move.label)
            twin.chance_record = record
            twin.apply(move.label)
            if spec.log:
                self._check_new_entries(st, twin, move, moves, restored)
            if restored != st or (spec.log and restored.log_tail is not st.log_tail
                                  and _log_of(restored) != _log_of(st)):
                raise _Failed("clone", f"moving a clone ({move.label!r}) changed the original")
            # A move that fails changes nothing (after the clone's check: the
            # atomic check plays on clones).
            self._check_atomic(restored, move, self._tight_limits)
            for m in moves:
                if m.label not in earlier_set:
                    earlier_set.add(m.label)
                    earlier.append(m.label)
            st = twin
            step += 1
        return labels, states, outcomes

    @staticmethod
    def _check_atomic(st: St, move: Any, tight: Optional[Dict[Tuple[Any, int], Any]] = None) -> None:
        """The move made in a copy whose limits are so tight that most moves
        fail inside ``apply`` (a jump back or a rule called is past them):
        a failed apply leaves the copy exactly as ``st``.  ``tight``: the
        tight limits already made, by (limits, depth)."""
        probe = st.clone()
        key = (probe.limits, max(1, len(probe.stack)))
        limits = tight.get(key) if tight is not None else None
        if limits is None:
            limits = attrs.evolve(probe.limits, max_steps=1, max_depth=key[1])
            if tight is not None:
                tight[key] = limits
        probe.limits = limits
        try:
            probe.apply(move.label)
        except RulesetError:
            if probe != st or (probe.log_tail is not st.log_tail and _log_of(probe) != _log_of(st)):
                _replays_or_fail(st)
                raise _Failed("atomic", f"a failed apply({move.label!r}) changed the state") from None
        except Exception as e:  # noqa: BLE001 - any other exception is an engine bug
            raise _Failed("atomic", f"apply({move.label!r}) past a limit raised "
                                    f"{type(e).__name__} ({e}), not RulesetError") from None

    def _check_position(self, st: St, step: int, rng: random.Random) -> Optional[List[Any]]:
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

    def _check_views(self, st: St, step: int, rng: random.Random) -> None:
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

    def _check_new_entries(self, st: St, after: St, move: Any, moves: List[Any], origin: St) -> None:
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
        if st.explicit or not st.is_chance_node:
            self._check_hidden_values(st, after, move, moves, new)
        if st.explicit:
            if st.is_chance_node:
                self._check_draw(st, after, move, moves, new)
            return
        self._check_shuffled(st, after, new, lambda twin: twin.apply(move.label),
                             f"after {move.label!r}")

    def _check_shuffled(self, st: St, after: St, new: List[Any], advance: Callable[[St], Any],
                        when: str) -> None:
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

    def _check_draw(self, st: St, after: St, move: Any, moves: List[Any], new: List[Any]) -> None:
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
        for other, alt, theirs in _alternatives(st, move, moves):
            for seat in seats:
                # The draw's own entry (the first) always; the rest when the
                # rules did not make the card matter.
                mine, their = _given(new, seat), _given(theirs, seat)
                if mine[:1] != their[:1] or (mine != their and
                                             _comparable(after, new, alt, theirs, seat)):
                    self._leak(seat, f"when {move.label!r} rather than {other.label!r}",
                               mine, their)

    def _check_hidden_values(self, st: St, after: St, move: Any, moves: List[Any],
                             new: List[Any]) -> None:
        """A chance outcome or a decision whose other choices (up to two)
        lead to states that differ, for some seat, only in stats or piece values hidden from
        it (a roll under a cup, a secret throw) gives that seat the same
        entries whichever it was: found from the states, not from what the
        engine says of the roll or the choice."""
        prog = st.prog
        if len(moves) < 2 or not (prog.player_sight or prog.piece_sight
                                  or any(s.sight for s in prog.global_stats)):
            return
        for other, alt, theirs in _alternatives(st, move, moves):
            for seat in list(range(st.players)) + [None]:
                if seat == st.current_player or not _hidden_differ(after, alt, seat):
                    continue
                mine, their = _given(new, seat), _given(theirs, seat)
                if mine != their and _comparable(after, new, alt, theirs, seat):
                    self._leak(seat, f"when {move.label!r} rather than {other.label!r} "
                                     f"(a value hidden from it)", mine, their)

    def _leak(self, seat: Optional[int], when: str, mine: List[Any], theirs: List[Any]) -> NoReturn:
        who = "a spectator" if seat is None else f"seat {seat}"
        at = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), 0)
        a = mine[at] if at < len(mine) else None
        b = theirs[at] if at < len(theirs) else None
        raise _Failed("hidden", f"the log entries {who} gets {when} depend on what is hidden from it: "
                                f"{a} in one game, {b} in another")

    _JUNK: Tuple[Any, ...] = ("\x00 not a move", None, 7, b"bytes", ("a",), Move("\x01 nor this", None), "")

    def _check_illegal(self, st: St, saved: St, legal: Set[str], earlier: List[str],
                       rng: random.Random, step: int) -> None:
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

    def _check_restore(self, st: St) -> St:
        text = st.to_json()
        try:
            restored: St = self.game.restore(text)
        except SaveError:
            _replays_or_fail(st)     # (the cause when the moves do not replay)
            raise
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
        if st.is_over or _replayed_at(len(st.history)):
            try:
                again = self.game.replay(st.to_replay())
            except SaveError as e:
                raise _Failed("replay", f"Game.replay(state.to_replay()) refuses it: {e}") from None
            if again != st or again.history != st.history:
                raise _Failed("replay", "Game.replay(state.to_replay()) does not give the state")
        return restored

    def _check_over(self, st: St) -> None:
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

    def _replay(self, spec: _Spec, labels: List[str], states: List[St]) -> None:
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

    def _explicit_agrees(self, spec: _Spec, labels: List[str], states: List[St],
                         outcomes: List[List[str]]) -> None:
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

    def fresh_processes(self, fresh: List[Fresh], hash_seeds: Sequence[int]) -> None:
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


def _first_difference(a: Any, b: Any, path: str = "view") -> str:
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


def _replays_or_fail(st: St) -> None:
    """Raise the replay failure when the seed and the moves do not give
    ``st`` again.  A failed move is undone, and a save restored, by
    replaying the moves: a game whose dice come from outside its state
    shows there first, and the cause is named rather than the symptom."""
    try:
        again = st.game.replay(st.to_replay())
    except (SaveError, RulesetError) as e:
        raise _Failed("replay", f"replaying the seed and the moves fails: {e}") from None
    if again != st:
        raise _Failed("replay", "replaying the seed and the moves gives another state")
