"""The Python the engine generates for each rule (``rulelang.engine.codegen``)
plays exactly as the ops it is made from: every ruleset, in sample and
explicit chance mode, is played move for move both ways (the ops run one
at a time by ``rulelang.testing.op_by_op``) and the states, the legal moves
and the logs must be the same at every step."""

from __future__ import annotations

import json
import random

import pytest

import rulelang
from rulelang.testing import op_by_op
from helpers import RULESETS, play_in_step, shipped

GAMES = 12


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_generated_code_plays_as_the_ops(path, chance):
    generated = shipped(path.name)
    reference = op_by_op(generated)
    assert reference.prog.runners[0] is not generated.prog.runners[0]
    steps = 0
    for i in range(GAMES):
        players = generated.min_players + i % (min(generated.max_players, 4) - generated.min_players + 1)
        # Unlogged games take the generated code's quickest paths (draws
        # in one loop); logged ones compare the logs too.
        log = i % 2 == 0
        a = generated.new_game(players=players, seed=i, chance=chance, log=log)
        b = reference.new_game(players=players, seed=i, chance=chance, log=log)
        same = SameSaves()

        def check(a, b, moves, i=i, log=log, same=same):
            assert same(a, b), f"game {i} differs after {moves} moves"
            if log:
                assert same.new_texts(a) == same.new_texts(b)
        steps += play_in_step(a, b, random.Random(i), check)
        assert a.to_json() == b.to_json()
        assert [e.text for e in a.log] == [e.text for e in b.log]
        assert a.result() == b.result()
    assert steps > 50 * GAMES      # whole games were compared, not just their starts


def _since(node, stop):
    """The items of a chain of ``(item, rest, ...)`` nodes from ``node`` back
    to ``stop``, oldest first, or None when ``stop`` is not on it."""
    out = []
    while node is not stop:
        if node is None or len(node) < 2:
            return None
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


class SameSaves:
    """``a.to_json() == b.to_json()`` after every move of two games played
    side by side, in time for what changed (comparing the whole save at
    every step costs as much as the rest of the test over again, for each
    step of a long logged game): the state without its history and log is
    compared whole, the history and the log by the entries added since the
    last call.  Both are chains of immutable nodes that a move only adds
    to, so the older entries are the very objects compared before; when a
    chain is not the one seen last plus new nodes, it is compared whole."""

    def __init__(self):
        self.seen = {}      # id(state) -> (state, its hist and log_tail when last compared)
        self.new_entries = {}

    def _new(self, st):
        """(the labels, the log entries) added to ``st`` since the last call,
        or None for each chain that is not the last one plus new nodes."""
        last = self.seen.get(id(st))
        hist, tail = (last[1], last[2]) if last is not None and last[0] is st else (None, None)
        labels = _since(st.hist, hist) if hist is not None else None
        entries = _since(st.log_tail, tail) if tail is not None else None
        self.seen[id(st)] = (st, st.hist, st.log_tail)
        return labels, entries

    def __call__(self, a, b):
        if json.dumps(a._plain()) != json.dumps(b._plain()):
            return False
        (labels_a, log_a), (labels_b, log_b) = self._new(a), self._new(b)
        if labels_a is None or labels_b is None:
            labels_a, labels_b = a.history, b.history
        if log_a is None or log_b is None:
            log_a, log_b = a.log, b.log
        self.new_entries = {id(a): log_a, id(b): log_b}
        return (json.dumps(labels_a) == json.dumps(labels_b) and
                json.dumps([e.to_dict() for e in log_a]) == json.dumps([e.to_dict() for e in log_b]))

    def new_texts(self, st):
        """The texts of the log entries the last call compared for ``st``."""
        return [e.text for e in self.new_entries[id(st)]]


def test_a_runaway_rule_is_stopped_at_the_same_line_both_ways():
    """The step limit stops an endless loop in generated code and op by op,
    and both name the loop's line (line 5, the 'while'; before 0.3 the
    statement last run inside it, line 6, was named)."""
    text = ('game "Loop"\nplayers 1..1\nper player { x 0 }\n'
            'rule spin {\n  while yes {\n    x += 1 } }\nturn { phase go { spin } }\n')
    lines = set()
    for game in (rulelang.loads(text, "loop.rules"), op_by_op(rulelang.loads(text, "loop.rules"))):
        with pytest.raises(rulelang.RulesetRuntimeError) as err:
            game.new_game(limits=rulelang.Limits(max_steps=1000))
        assert "without reaching a decision" in err.value.message
        lines.add(err.value.line)
    assert lines == {5}


TINY = '''game "Tiny"
players 1..1
per player { x 0 max 50 }
rule grow {
    x += 2
    if x > 3: x += 1
}
turn { phase p { grow; if x > 10: end game "big" } }
'''


def test_generated_functions_are_named_after_their_rule_and_readable(tmp_path):
    """A generated function is named after what it runs, its source is in
    linecache under the rule file's name (so tracebacks and debuggers show
    it), and each statement carries the rule file's line as a comment."""
    import inspect

    path = tmp_path / "tiny.rules"
    path.write_text(TINY)
    game = rulelang.load(path)
    prog = game.prog
    fn = prog.runner(prog.rule_code["grow"])
    assert fn.__name__ == "rule_grow"
    assert fn.__code__.co_filename == "<rulelang tiny.rules: rule grow>"
    source = inspect.getsource(fn)
    assert source.startswith("def rule_grow(st, fr):")
    assert "# line 5" in source and "# line 6" in source
    state = game.new_game(players=1)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert state.stat("x", 0) == 11       # 2, 5, 8, 11


def test_rulelang_dump_python_prints_the_generated_code(tmp_path, capsys):
    from rulelang.cli import main

    path = tmp_path / "tiny.rules"
    path.write_text(TINY)
    assert main(["dump", "--python", str(path), "grow"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ---- rule grow\ndef rule_grow(st, fr):")
    assert "def the_turn" not in out
    assert main(["dump", "--python", str(path)]) == 0
    out = capsys.readouterr().out
    assert "def rule_grow(st, fr):" in out and "def the_turn(st, fr):" in out
    assert main(["dump", "--python", str(path), "shrink"]) == 1
    assert "no code named shrink; there are: " in capsys.readouterr().err


FAULTS = '''game "Faults"
players 1..1
per player { x 0 }
rule grow {
  x = 1
  x = 2
  if x == 1 {
    x = 3
  } else if abs(x * 9000000000000000) > 5 {
    x = 4
  }
}
turn { phase go { grow } }
'''


@pytest.mark.parametrize("how", ["generated", "op by op"])
def test_a_fault_names_the_line_of_its_statement(how):
    """A number past ``Limits.max_number`` in an 'else if' condition, after
    other statements ran, is reported at the 'else if' line (9), from the
    line Python reports in the generated code (``codegen.line_table``),
    and the same op by op."""
    game = rulelang.loads(FAULTS, "faults.rules")
    if how == "op by op":
        game = op_by_op(game)
    with pytest.raises(rulelang.RulesetRuntimeError) as err:
        game.new_game()
    assert err.value.line == 9
    assert "rule grow" in err.value.message and "past" in err.value.message


def test_generated_code_stores_no_place_at_run_time():
    """The place of each statement is a comment (``# line N [i]``), not a
    store: no ``_at`` in the generated function, and its table maps the
    comment's lines to their places."""
    from rulelang.engine import codegen
    game = rulelang.loads(FAULTS, "faults.rules")
    prog = game.prog
    text = codegen.source_of(prog, prog.rule_code["grow"])
    assert "_at" not in text
    table = codegen.line_table(text)
    wheres = prog.code_wheres[prog.rule_code["grow"]]
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith("# line "):
            at = wheres[table[number]]
            assert f"# line {at[1].line} " in line


def test_a_turn_condition_may_ask_a_seat():
    """The turn loop's own variables are not names the generated code
    calls: a turn's ``when`` and a per-turn value that ask ``seat of this
    player`` (a function of the generated code) work, and play as the ops
    do.  (Before, the seat being tried was held in a local of the same
    name, and asking a seat in ``when`` failed.)"""
    game = rulelang.loads('''
game "Odd seats"
players 3
per player { moves 0 }
turn when seat of this player is not 1 {
    phase p { choose one "Go" { "step": moves += 1  "rest": moves += 0 } }
}
end "done" when round > 3
score { moves }
''', "odd.rules")
    state = game.new_game(seed=1)
    seats = []
    while not state.is_over:
        seats.append(state.current_player)
        state.apply("step")
    assert seats == [0, 2] * 3
    assert [state.stat("moves", p) for p in range(3)] == [3, 0, 3]
