"""The Python the engine generates for each rule (``rulelang.engine.codegen``)
plays exactly as the ops it is made from: every ruleset, in sample and
explicit chance mode, is played move for move both ways (the ops run one
at a time by ``rulelang.testing.op_by_op``) and the states, the legal moves
and the logs must be the same at every step."""

from __future__ import annotations

import pathlib
import random

import pytest

import rulelang
from rulelang import CHANCE
from rulelang.testing import op_by_op

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
GAMES = 12


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_generated_code_plays_as_the_ops(path, chance):
    generated = rulelang.load(path)
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
        rng = random.Random(i)
        while True:
            assert a.to_json() == b.to_json(), f"game {i} differs after {steps} moves"
            if log:
                assert [e.text for e in a.log] == [e.text for e in b.log]
            if a.is_over:
                break
            moves = a.legal_moves()
            assert [(m.label, m.probability) for m in moves] == \
                [(m.label, m.probability) for m in b.legal_moves()]
            if a.current_player == CHANCE:
                move = rng.choices(moves, weights=[float(m.probability) for m in moves])[0]
            else:
                move = rng.choice(moves)
            a.apply(move.label)
            b.apply(move.label)
            steps += 1
        assert a.result() == b.result()
    assert steps > 50 * GAMES      # whole games were compared, not just their starts


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
  } else if x * 9000000000000000 > 5 {
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
