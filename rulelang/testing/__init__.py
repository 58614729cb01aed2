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

Costs.  Every check runs at every step of every game, with five
economies: the views (and the moves and messages a seat is given) are
checked for one seat per step, in turn (the spectator included), so each
seat's view is checked every few steps all through every game, and the
log's hidden-information checks run in the games that keep their log;
the illegal-move probes are two per step (a kind of junk in turn, and a
label that was legal earlier); only every
``log_every``-th game (default 20th) keeps its game log, and as its JSON
grows with every step such a game is saved and restored at fewer steps
(every step up to 50, every second step up to 100, …, and at the end);
a game that keeps no log is saved and restored at every step where its
frames wait somewhere no restored step of the game has waited yet, at a
share ``restores`` (default a half) of its other steps, and at the end;
and the fresh-process replays run ``fresh_games`` games of each chance
mode (default 2) in one child process per value of ``hash_seeds``
(default two).

A ruleset may declare its own bound on the length of a game with a comment
line ``# conformance: max-moves N``; otherwise the harness's ``max_moves``
(default 10 000) applies.

The package: ``conformance`` (``check_ruleset`` and its worker
processes), ``runner`` (one game played with every check), ``report``
(``Report``, ``Failure``), ``processes`` (the child processes, the
fresh-process replays), ``audit`` (``EngineAudit``), ``golden``
(``golden_log``), ``coverage`` (which statements of a rule file random
games reach: ``coverage``, ``Coverage``, ``CoverageReport``; also
``rulelang coverage``); ``op_by_op``, the reference interpreter the
generated code is tested against, is ``rulelang.engine.oracle``.
"""

from __future__ import annotations

from ..engine.oracle import op_by_op
from .audit import EngineAudit
from .conformance import check_ruleset, declared_max_moves
from .coverage import Coverage, CoverageReport, coverage
from .golden import golden_log
from .report import DEFAULT_MAX_MOVES, Failure, Report  # noqa: F401  (DEFAULT_MAX_MOVES: as before)

__all__ = ["Coverage", "CoverageReport", "EngineAudit", "Failure", "Report", "check_ruleset",
           "coverage", "declared_max_moves", "golden_log", "op_by_op"]
