"""What the test files share: the places of the shipped rulesets, each
shipped game loaded once per test process (``shipped``; the fixtures of
``conftest.py`` give the same games), and the small helpers several files
used to copy."""

from __future__ import annotations

import functools
import pathlib
import random

import rulelang

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: The real games, the examples, and the small rulesets of tests/conformance/
#: that use what the real ones do not.
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
EXAMPLES = sorted((ROOT / "examples").glob("*.rules"))
FEATURES = sorted((ROOT / "tests" / "conformance").glob("*.rules"))
SHIPPED = {p.name: p for p in RULESETS + EXAMPLES + FEATURES}


@functools.lru_cache(maxsize=None)
def shipped(name: str) -> rulelang.Game:
    """The shipped ruleset ``name`` ("northpole.rules", "pig.rules",
    "cards.rules", …), loaded once per process and shared by every test
    that asks: play it (new games, states), never change the game itself
    (a test that edits a game's program loads its own with
    ``rulelang.load``)."""
    return rulelang.load(SHIPPED[name])


def game(body: str, players: str = "1..2") -> rulelang.Game:
    """A small game written inline: its title and players, then ``body``."""
    return rulelang.loads(f'game "T"\nplayers {players}\n{body}', "t.rules")


def play(state, *labels):
    """Apply moves by label, in order."""
    for label in labels:
        state.apply(label)
    return state


def labels(state):
    """The labels of the legal moves."""
    return [m.label for m in state.legal_moves()]


def answer(state, *wanted):
    """Apply moves by label: a label that is a prompt's answer may be given
    whole ("Move to: Oasis") or as the part after the prompt ("Oasis")."""
    for label in wanted:
        moves = state.legal_moves()
        named = [m for m in moves if m.label == label or m.label.endswith(": " + label)]
        assert len(named) == 1, f"{label!r} is not one of {[m.label for m in moves]}"
        state.apply(named[0])
    return state


def offered(state):
    """The labels offered, each without its prompt."""
    return [m.label.split(": ", 1)[-1] for m in state.legal_moves()]


def line_of(text, needle):
    """The line (from 1) of the first ``needle`` in ``text``."""
    return text[:text.index(needle)].count("\n") + 1


def random_moves(state, rng, count):
    """Make up to ``count`` random legal moves (fewer if the game ends);
    their labels."""
    labels = []
    for _ in range(count):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        labels.append(move.label)
        state.apply(move)
    return labels


def interrupt_after_the_work(monkeypatch, fired):
    """Make ``State.apply`` fail (``KeyboardInterrupt``) once it has done all
    a move does: after the rules ran, or as the next moves are listed where
    the rules did not put them in place, whichever comes first while
    ``fired`` is empty (the failure then appends to it)."""
    from rulelang.engine import State

    def then_fails(real):
        def wrapped(self, *args):
            done = real(self, *args)
            if not fired:
                fired.append(1)
                raise KeyboardInterrupt
            return done
        return wrapped
    for name in ("_run", "_legal"):
        monkeypatch.setattr(State, name, then_fails(getattr(State, name)))


def play_in_step(a, b, rng, check=None):
    """Play states ``a`` and ``b`` with the same moves until ``a`` is over:
    each a random pick from ``a``'s legal moves (a chance outcome weighted
    by its probability), which must be ``b``'s too (labels and
    probabilities); ``check(a, b, moves)`` before each move and at the end.
    Returns the number of moves made."""
    moves = 0
    while True:
        if check is not None:
            check(a, b, moves)
        if a.is_over:
            return moves
        legal = a.legal_moves()
        assert [(m.label, m.probability) for m in legal] == \
            [(m.label, m.probability) for m in b.legal_moves()]
        if a.current_player == rulelang.CHANCE:
            move = rng.choices(legal, weights=[float(m.probability) for m in legal])[0]
        else:
            move = rng.choice(legal)
        a.apply(move.label)
        b.apply(move.label)
        moves += 1


def play_both_ways(game, games, chance="sample", players=None, check=None):
    """Play ``games`` games of ``game`` move for move two ways, its
    generated code and its ops one at a time (``rulelang.testing.op_by_op``):
    game i with seed i, ``players(i)`` players (the fewest without it), in
    ``chance`` mode (``chance(i)`` when it is a function), each move checked
    as ``play_in_step`` does and by ``check(a, b, moves)``; at the end of
    each the saves, the logs and the results must be the same.  Returns the
    number of moves made."""
    from rulelang.testing import op_by_op

    reference = op_by_op(game)
    moves = 0
    for i in range(games):
        mode = chance(i) if callable(chance) else chance
        n = players(i) if players is not None else None
        a = game.new_game(players=n, seed=i, chance=mode)
        b = reference.new_game(players=n, seed=i, chance=mode)
        moves += play_in_step(a, b, random.Random(i), check)
        assert a.to_json() == b.to_json(), f"game {i}: the saves differ"
        assert [e.text for e in a.log] == [e.text for e in b.log]
        assert a.result() == b.result()
    return moves
