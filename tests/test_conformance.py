"""Conformance: every ruleset in rulesets/ under random play, with every
promise of the move API checked at every step (rulelang.testing), and
the harness itself shown to catch each kind of broken promise.

``make test`` plays 100 games per ruleset per chance mode, ``make test-long``
(in CI too) 300.  A long session:

    RULELANG_CONFORMANCE_GAMES=10000 python -m pytest tests/test_conformance.py -k every_ruleset

or, for one file, ``rulelang conformance rulesets/X.rules --games 10000 --workers 4``.
RULELANG_CONFORMANCE_SEED picks another first seed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest

import rulelang
from rulelang import IllegalMoveError
from rulelang.engine import game as game_module, ops, state as state_module
from rulelang.engine.ops import PoolOp
from rulelang.testing import Failure, check_ruleset, declared_max_moves
from helpers import EXAMPLES, ROOT, RULESETS

EXTRA = sorted((ROOT / "tests" / "conformance").glob("*.rules"))
GAMES = int(os.environ.get("RULELANG_CONFORMANCE_GAMES", "36"))   # test-long: 300
SEED = int(os.environ.get("RULELANG_CONFORMANCE_SEED", "0"))
WORKERS = max(1, min(2, os.cpu_count() or 1))


def test_there_are_rulesets():
    assert RULESETS, "no rulesets/*.rules found"


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_every_ruleset_conforms(path):
    """GAMES random games per chance mode, every check at every step, two
    games per mode replayed in fresh processes under two other hash seeds,
    and every game watched for file, network, subprocess, import and clock
    use from inside the engine."""
    game = rulelang.load(path)
    report = check_ruleset(game, games=GAMES, seed=SEED, workers=WORKERS, audit=True)
    assert report.ok, report.format()
    assert report.games_by_chance == {"sample": GAMES, "explicit": GAMES}
    assert report.fresh_process_games == 4
    assert report.moves > GAMES


@pytest.mark.parametrize("path", EXTRA, ids=[p.name for p in EXTRA])
def test_feature_rulesets_conform(path):
    """Small rulesets that use constructs the real games do not."""
    game = rulelang.load(path)
    report = check_ruleset(game, games=60, seed=SEED, fresh_games=1, audit=True)
    assert report.ok, report.format()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_conforms(path):
    """The small classic games of examples/."""
    game = rulelang.load(path)
    report = check_ruleset(game, games=40, seed=SEED, fresh_games=1)
    assert report.ok, report.format()


# ------------------------------------------------------------- the harness can fail


def _liars_dice():
    return rulelang.load(ROOT / "examples" / "liars_dice.rules")


def test_a_roll_under_the_cup_logged_for_all_is_caught():
    """The engine told to log the dice rolled into each hidden cup for all."""
    game = _liars_dice()
    for code in game.prog.codes:
        for op in code:
            if isinstance(op, PoolOp):
                op.seen = None
    report = check_ruleset(game, games=10, fresh_games=0)
    assert "hidden" in checks(report)
    assert any("a value hidden from it" in f.message for f in report.failures)


def test_a_secret_choice_logged_for_all_is_caught():
    game = rulelang.loads(textwrap.dedent('''
        game "Throws"
        players 2
        per player { throw one of rock, paper, scissors secret  wins 0 }
        turn {
            phase a {
                secretly choose one "Throw" {
                    "Rock": throw = rock  "Paper": throw = paper  "Scissors": throw = scissors
                }
                if round == 3: end game "done"
            }
        }
        score { wins }
        '''))
    assert check_ruleset(game, games=5, fresh_games=0).ok
    for code in game.prog.codes:
        for op in code:
            if getattr(op, "secret", False):
                op.secret = False
    assert "hidden" in checks(check_ruleset(game, games=5, fresh_games=0))


def test_a_view_that_shows_a_hidden_stat_is_caught(monkeypatch):
    real = state_module.State.view

    def leaky(self, player):
        v = real(self, player)
        for p in v["players"]:
            p["stats"]["cup"] = self.stat("cup", p["seat"])
        return v
    monkeypatch.setattr(state_module.State, "view", leaky)
    assert "view" in checks(check_ruleset(_liars_dice(), games=3, fresh_games=0))


def small(**kw):
    """A short run on North Pole (no fresh processes unless asked)."""
    kw.setdefault("games", 3)
    kw.setdefault("fresh_games", 0)
    return check_ruleset(rulelang.load(ROOT / "rulesets" / "northpole.rules"), **kw)


def checks(report):
    return {f.check for f in report.failures}


def test_a_clean_run_reports_games_and_moves():
    report = small(games=2)
    assert report.ok and report.games == 4 and report.moves > 0
    assert "4 games (2 sample, 2 explicit)" in report.format()


def test_dice_behind_the_apis_back_are_caught(monkeypatch):
    """A generator outside the state (here one of Python's, seeded so that
    the run is the same each time) is reported as a game that does not
    replay, wherever it shows first: in a restored save, in a failed move
    undone by replay, or in the replay itself."""
    import random as stdlib_random
    rogue = stdlib_random.Random(7)
    real = ops.rand_below
    for module in (ops.chance, ops.choices):     # (where the ops draw their numbers)
        monkeypatch.setattr(module, "rand_below", lambda st, n: real(st, n)
                            if rogue.random() < 0.5 else rogue.randrange(n))
    report = small(chance=("sample",))
    assert "replay" in checks(report), report.format()


def test_hash_seed_dependence_is_caught_in_fresh_processes(tmp_path, monkeypatch):
    """A game whose dice depend on Python's string hashing replays alike in
    one process; only fresh processes under other PYTHONHASHSEED values
    show it.  The children get such an engine through sitecustomize."""
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent("""
        import rulelang.engine.ops as ops
        real = ops.rand_below
        def rand_below(st, n):
            return (real(st, n) + hash("rulelang")) % n
        ops.chance.rand_below = ops.choices.rand_below = rand_below
    """))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    report = small(games=1, chance=("sample",), fresh_games=1, hash_seeds=(1, 2))
    assert report.fresh_process_games == 1
    assert [f.check for f in report.failures] == ["replay", "replay"], report.format()
    assert all("fresh process" in f.message for f in report.failures)


def test_a_clone_that_shares_lists_is_caught(monkeypatch):
    real = state_module.State.clone

    def shallow(self):
        c = real(self)
        c.v = self.v
        return c
    monkeypatch.setattr(state_module.State, "clone", shallow)
    assert "clone" in checks(small(games=1))


def test_a_restore_that_loses_something_is_caught(monkeypatch):
    real = game_module.Game.restore

    def lossy(self, text):
        st = real(self, text)
        st.order_pos = -1
        return st
    monkeypatch.setattr(game_module.Game, "restore", lossy)
    assert "restore" in checks(small(games=1))


def test_an_illegal_move_that_changes_the_state_is_caught(monkeypatch):
    real = state_module.State.apply

    def careless(self, move):
        label = move.label if isinstance(move, rulelang.Move) else move
        if isinstance(label, str) and label not in [m.label for m in self.legal_moves()]:
            self.round += 1
        return real(self, move)
    monkeypatch.setattr(state_module.State, "apply", careless)
    assert "illegal-move" in checks(small(games=1))


def test_an_illegal_move_accepted_is_caught(monkeypatch):
    real = state_module.State.apply

    def lenient(self, move):
        try:
            return real(self, move)
        except IllegalMoveError:
            return self
    monkeypatch.setattr(state_module.State, "apply", lenient)
    assert "illegal-move" in checks(small(games=1))


def test_a_view_that_shows_the_deck_is_caught(monkeypatch):
    real = state_module.State.view

    def leaky(self, player):
        v = real(self, player)
        v["piles"]["travel"] = self.pile("travel")       # in its order
        return v
    monkeypatch.setattr(state_module.State, "view", leaky)
    assert "view" in checks(small(games=1))


def test_a_view_that_shows_another_hand_is_caught(monkeypatch):
    real = state_module.State.view

    def leaky(self, player):
        v = real(self, player)
        for p in v["players"]:
            p["piles"]["hand"] = sorted(self.pile("hand", p["seat"]))
        return v
    monkeypatch.setattr(state_module.State, "view", leaky)
    assert "view" in checks(small(games=2))


def test_a_view_that_is_not_json_is_caught(monkeypatch):
    real = state_module.State.view
    monkeypatch.setattr(state_module.State, "view", lambda self, p: dict(real(self, p), odd={1, 2}))
    assert "view" in checks(small(games=1))


def test_probabilities_that_do_not_add_up_are_caught(monkeypatch):
    real = ops.DrawOp.moves

    def off(self, st, fr):
        return [(label, p * Fraction(99, 100), v) for label, p, v in real(self, st, fr)]
    monkeypatch.setattr(ops.DrawOp, "moves", off)
    report = small(games=1, chance=("explicit",))
    assert checks(report) == {"chance"}
    assert "add up to 99/100" in report.failures[0].message


def test_float_probabilities_are_caught(monkeypatch):
    real = ops.RollOp.moves

    def floats(self, st, fr):
        return [(label, float(p) if p is not None else None, v) for label, p, v in real(self, st, fr)]
    monkeypatch.setattr(ops.RollOp, "moves", floats)
    assert "chance" in checks(small(games=1, chance=("explicit",)))


def test_duplicate_labels_are_caught(monkeypatch):
    game = rulelang.load(ROOT / "tests" / "conformance" / "features.rules")
    game.prog.card_labels[:] = game.prog.card_names     # the old labelling
    report = check_ruleset(game, games=20, fresh_games=0, chance=("sample",))
    assert "legal-moves" in checks(report)
    assert any("not unique" in f.message for f in report.failures)


def test_modes_that_disagree_are_caught(monkeypatch):
    """Explicit mode fed the sampled outcomes must reach the same states."""
    real = ops.RollOffOp._add

    def skewed(self, st, fr, value):
        return real(self, st, fr, self.sides + 1 - value if st.explicit else value)
    monkeypatch.setattr(ops.RollOffOp, "_add", skewed)
    report = small(games=2, chance=("sample",))
    assert "explicit-agrees" in checks(report), report.format()


def test_a_game_too_long_is_caught():
    report = small(games=1, max_moves=5)
    assert checks(report) == {"length"}
    assert all(len(f.moves) == 5 for f in report.failures)


def test_a_declared_bound_is_read_from_the_ruleset():
    game = rulelang.loads('# conformance: max-moves 3\ngame "Long"\nplayers 1..1\nper player { x 0 }\n'
                          'turn { phase p { choose one { "a": x += 1  "b": x -= 1 } } }\n'
                          'end "done" when round > 10')
    assert declared_max_moves(game) == 3
    report = check_ruleset(game, games=1, fresh_games=0)
    assert checks(report) == {"length"} and report.max_moves == 3


def test_a_runtime_error_is_reported_with_its_game():
    game = rulelang.loads('game "Loop"\nplayers 1..1\nper player { x 0 }\n'
                          'turn { phase p { choose one { "go": x += 1  "spin": while yes { x += 1 } } } }\n'
                          'end "done" when round > 5', "loop.rules")
    report = check_ruleset(game, games=4, fresh_games=0)
    assert checks(report) == {"runtime-error"}
    f = report.failures[0]
    assert f.moves[-1] == "spin" and "loop.rules:4:" in f.message


def test_a_crash_is_reported(monkeypatch):
    monkeypatch.setattr(state_module.State, "result", lambda self: 1 / 0)
    assert checks(small(games=1, chance=("sample",))) == {"crash"}


def test_engine_side_effects_are_caught_by_the_audit(monkeypatch, tmp_path):
    """With audit=True, a file read, a clock read or an import made inside
    the engine is a 'hermetic' failure."""
    real = ops.rand_below
    secret = tmp_path / "secret.txt"
    secret.write_text("x")

    def nosy(st, n):
        import time
        time.time()
        secret.read_text()
        return real(st, n)
    for module in (ops.chance, ops.choices):     # (where the ops draw their numbers)
        monkeypatch.setattr(module, "rand_below", nosy)
    report = small(games=1, chance=("sample",), audit=True)
    hermetic = [f.message for f in report.failures if f.check == "hermetic"]
    assert any("time.time" in m for m in hermetic) and any("secret.txt" in m for m in hermetic)


def test_failures_reproduce():
    """Failure.reproduce() is Python that replays the failing game."""
    report = small(games=1, max_moves=7)
    f = report.failures[0]
    assert isinstance(f, Failure) and len(f.moves) == 7
    code = f.reproduce(str(ROOT / "rulesets" / "northpole.rules"))
    scope = {}
    exec(code, scope)
    assert len(scope["state"].log) > 0
    assert f.to_dict()["moves"] == list(f.moves)


def test_workers_give_the_same_report():
    a = small(games=4)
    b = small(games=4, workers=2)
    assert (a.games, a.moves, a.games_by_chance, a.ok) == (b.games, b.moves, b.games_by_chance, b.ok)


def test_the_conformance_command():
    """rulelang conformance FILE prints the report and exits 0 when every
    check holds, 1 otherwise."""
    path = str(ROOT / "rulesets" / "northpole.rules")
    ok = subprocess.run([sys.executable, "-m", "rulelang", "conformance", path, "--games", "2",
                         "--fresh-games", "1"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "4 games (2 sample, 2 explicit)" in ok.stdout and "0 failures" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "rulelang", "conformance", path, "--games", "1",
                          "--chance", "sample", "--max-moves", "3", "--fresh-games", "0"],
                         capture_output=True, text=True)
    assert bad.returncode == 1
    assert "FAIL [length]" in bad.stdout and "state.apply(label)" in bad.stdout


def test_every_kind_of_step_is_saved_and_restored(monkeypatch):
    """A game that keeps no log is restored at every step where its frames
    wait somewhere new for it (so at every kind of step), and at about half
    of the others; with restores=1 at every step."""
    from rulelang.testing import runner
    seen, restored = [], []

    def layout(st):
        return (st.waiting, st.rerolling, tuple((fr[0], fr[1]) for fr in st.stack))
    real_position, real_restore = runner._Runner._check_position, runner._Runner._check_restore
    monkeypatch.setattr(runner._Runner, "_check_position",
                        lambda self, st, step, rng: seen.append(layout(st)) or real_position(self, st, step, rng))
    monkeypatch.setattr(runner._Runner, "_check_restore",
                        lambda self, st: restored.append(layout(st)) or real_restore(self, st))
    game = rulelang.load(ROOT / "rulesets" / "northpole.rules")
    report = check_ruleset(game, games=2, fresh_games=0, log_every=0)
    assert report.ok and set(restored) == set(seen)
    assert len(seen) / 3 < len(restored) < len(seen)
    seen.clear()
    restored.clear()
    assert check_ruleset(game, games=2, fresh_games=0, log_every=0, restores=1).ok
    assert len(restored) == len(seen)
