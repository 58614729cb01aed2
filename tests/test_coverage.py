"""Rule coverage (``rulelang.testing.coverage``, ``rulelang coverage``):
what never runs is reported at its line, what runs is counted exactly, and
playing without coverage is untouched."""

from __future__ import annotations

import json
import random

import pytest

import rulelang
from rulelang.cli import main
from rulelang.engine import codegen
from rulelang.engine import ops as O
from rulelang.testing import Coverage, coverage
from helpers import EXAMPLES, FEATURES, RULESETS, SHIPPED, line_of, shipped

#: A small game with a rule, a row, a choice and a 'whenever' that can
#: never run, beside statements of every kind that do: loops that wait and
#: loops that do not, an 'else if', a test with rerolls, a draw with an
#: 'on draw' rule, a row chosen, a decision's body.
BODY = """\
per player { gold 0  luck 0  hoax 2 }
deck main { Event x3: kind event
            Coin x5: kind coin }
pile hand per player
pile discard
test (gold): roll d6 <= gold
table events d6 {
    1..5 Quiet: gold += 1
    6    Storm: if round > 1000: gold -= 5
}
table rare d6 {
    1..3 Low: gold += 1
    4..6 High: gold += 2
}
rule never_runs { gold += 100 }
rule twice { repeat 2 times { roll on events } }
whenever luck is 3 { log "lucky" }
whenever gold is 1000000 { log "rich" }
on draw from main as c where kind is event { move c from hand to discard }
reroll while hoax > 0 { hoax -= 1 }
option style "Style" {
    "Bold": luck += 1
    "Calm": gold += 1
}
setup { for each player { choose style } }
turn {
    phase main {
        roll on events
        choose one "Act" {
            "Work": gold += 1
            "Rest": luck += 1
            "Dream" if gold > 1000: gold += 1000
        }
        if round > 1000: never_runs
        choose a row of rare 1..3
        repeat 3 times: gold += 1
        twice
        let r = roll d6
        if r is 6 { luck += 1 } else if r is 5 { gold += 1 } else { gold -= 0 }
        while gold > 0 {
            may "Spend" { gold -= 1 } else: stop
        }
        test gold
        draw 2 from main to hand
        move all from hand to discard
        if size of main < 2: move all from discard to main
    }
}
end "done" when round > 3
score { gold }
"""
TEXT = f'game "T"\nplayers 1..2\n{BODY}'


@pytest.fixture(scope="module")
def small():
    return rulelang.loads(TEXT, "t.rules")


def at(needle, text=TEXT):
    return line_of(text, needle)


def count(report, needle, column=None):
    """The count of the statement on the line of ``needle`` (its first, or
    the one at ``column``)."""
    line = at(needle)
    found = [s for s in report.statements if s.line == line and column in (None, s.column)]
    assert found, f"no statement on line {line}"
    return found[0].count


def part(report, name):
    (found,) = [p for p in report.parts if p.name == name]
    return found.count


def test_what_can_never_run_is_reported_at_its_line(small):
    """A rule never called, a row never chosen, a choice whose condition
    never holds, a 'whenever' that never fires and a call behind an 'if'
    that never holds are each reported once, at their line; what lies
    inside them is not listed again."""
    report = coverage(small, games=30)
    got = {(u.line, u.never, u.text) for u in report.unreached}
    assert got == {
        (at("Storm"), "never ran", "6    Storm: if round > 1000: »gold -= 5«"),
        (at("4..6 High"), "never came up", 'table rare row 4..6 "High"'),
        (at("rule never_runs"), "never called", "rule never_runs"),
        (at("whenever gold"), "never fired", f"whenever (line {at('whenever gold')})"),
        (at('"Dream"'), "never taken", 'choice "Act" option "Dream"'),
        (at("if round > 1000: never_runs"), "never ran", "if round > 1000: »never_runs«"),
    }
    assert not report.complete and not report.untracked and not report.errors
    assert {s.line for s in report.never_ran} == {u.line for u in report.unreached}
    dream = [u for u in report.unreached if u.what == "choice"][0]
    assert (dream.where, dream.inside) == ("phase main", 1)
    assert report.ran == report.total - 6


def test_options_answered_in_advance_and_parameters(small):
    """A setup option answered in advance leaves its other alternatives
    never taken; parameters are given as for new_game."""
    free = coverage(small, games=10)
    assert part(free, "option style") == 15           # once per player
    assert part(free, 'option style "Bold"') + part(free, 'option style "Calm"') == 15
    assert count(free, "choose style") == 10 and count(free, '"Bold"') > 0
    fixed = coverage(small, games=10, options={"style": "Bold"})
    assert [(u.what, u.text) for u in fixed.unreached if u.what.startswith("option")] == \
        [("option choice", 'option style "Calm"')]
    pig = shipped("pig.rules")
    short, long = (coverage(pig, games=20, players=2, params={"target": t}) for t in (10, 200))
    assert short.turns < long.turns and short.complete


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_what_runs_is_counted_exactly(small, chance):
    """Counts follow the game: a phase's statement runs once a turn, a loop
    counts the times it is reached (not its passes), whether it waits or
    not; a test counts once however often it is rerolled, a draw once
    however many 'on draw' rules it sets off, in both chance modes; a
    decision's alternatives add up to the decision."""
    report = coverage(small, games=24, chance=chance)
    turns = report.turns
    assert turns == 24 // 2 * (3 * 1 + 3 * 2)    # 3 rounds, 1 or 2 players
    for needle in ("        roll on events\n", 'choose one "Act"', "choose a row", "repeat 3 times",
                   "let r", "while gold", "test gold", "draw 2", "move all from hand"):
        assert count(report, needle) == turns, needle
    assert count(report, "repeat 3 times", column=25) == 3 * turns      # its body
    assert count(report, "rule twice") == turns                            # a loop that waits
    assert count(report, "rule twice", column=31) == 2 * turns
    assert part(report, "rule twice") == turns
    assert part(report, "table events") == 3 * turns
    assert part(report, 'table events row 1..5 "Quiet"') + \
        part(report, 'table events row 6 "Storm"') == 3 * turns
    assert part(report, 'table rare row 1..3 "Low"') == turns
    work, rest = part(report, 'choice "Act" option "Work"'), part(report, 'choice "Act" option "Rest"')
    assert work + rest == turns and work > 0 and rest > 0
    assert count(report, '"Work"') == work and count(report, '"Rest"') == rest
    # else if: each branch once, and the 'else if' whenever the 'if' fails
    line = at("if r is 6")
    by_column = sorted((s.column, s.count) for s in report.statements if s.line == line)
    (_, top), (_, six), (_, elif_), (_, five), (_, other) = by_column
    assert top == turns and six + elif_ == turns and five + other == elif_ and six and five
    # a 'may' in a loop: yes goes round again, no stops
    may, spend, stop = [s.count for s in report.statements if s.line == at('may "Spend"')]
    assert may == spend + stop and 0 < stop <= turns
    assert part(report, f"on draw from main (line {at('on draw')})") > 0
    assert count(report, "reroll while", column=25) > 0         # the reroll's cost
    assert part(report, f"whenever (line {at('whenever luck')})") > 0


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_an_op_that_runs_again_is_not_arrived_at_again(small, chance):
    """A test's roll runs again when it is rerolled, and a draw goes on
    after each 'on draw' rule it sets off: neither counts as control
    arriving at it again (what a statement whose first op it were would
    count)."""
    cov = Coverage(small)
    cov.play(16, chance=chance)
    report = cov.report()
    prog = cov.game.prog
    for needle, kind in (("test gold", O.RollOp), ("draw 2", O.DrawOp)):
        line = at(needle)
        ((c, k),) = [(c, k) for c, code in enumerate(prog.codes) for k, op in enumerate(code)
                     if type(op) is kind and op.where[1] is not None and op.where[1].line == line]
        assert cov._counter.arrived[c][k] == count(report, needle) == report.turns, needle
    assert count(report, "reroll while", column=25) > 0         # (there were rerolls)


def test_both_chance_modes_reach_the_same_statements(small):
    """Explicit mode (every die and draw a chance move, picked by its
    probability) reaches what sample mode reaches."""
    sample, explicit = (coverage(small, games=20, chance=c) for c in ("sample", "explicit"))
    assert [u.line for u in sample.unreached] == [u.line for u in explicit.unreached]
    assert explicit.moves > sample.moves        # (the chance moves)


@pytest.mark.parametrize("path", RULESETS + EXAMPLES + FEATURES, ids=lambda p: p.name)
def test_every_statement_of_every_shipped_ruleset_is_counted(path):
    """Every statement of every shipped ruleset has a counter (none is
    left 'untracked'), and a few games play without error."""
    try:
        game = shipped(path.name)
    except rulelang.RulesetError as e:
        pytest.skip(f"{path.name} does not load yet: {e.message}")
    report = coverage(game, games=3, max_moves=2000)
    assert report.total > 0 and not report.untracked and not report.errors
    assert report.ran > report.total // 2


def test_playing_without_coverage_is_untouched():
    """Coverage plays on a copy: the game it is given keeps its generated
    functions, and the copy plays the same games, move for move."""
    game = shipped("northpole.rules")
    before = game.playouts(6, seed=3, players=3)
    cov = Coverage(game)
    for seed in range(3):
        plain, counted = game.new_game(players=2 + seed, seed=seed, log=False), \
            cov.new_game(players=2 + seed, seed=seed)
        rng = random.Random(seed)
        while not plain.is_over:
            labels = [m.label for m in plain.legal_moves()]
            assert labels == [m.label for m in counted.legal_moves()]
            label = rng.choice(labels)
            plain.apply(label)
            counted.apply(label)
            assert plain == counted
        assert counted.is_over and plain.result() == counted.result()
    assert cov.report().ran > 0
    assert game.playouts(6, seed=3, players=3) == before
    counter = cov._counter.run
    assert all(r is None or r != counter for r in game.prog.runners)
    assert all(op.make is codegen.pure_function for code in game.prog.codes for op in code
               if isinstance(op, O.PureOp))


def test_errors_and_endless_games_are_reported(tmp_path):
    """A game that fails is reported with its seed and the games go on; a
    game longer than max_moves is stopped and counted as unfinished."""
    failing = rulelang.loads('game "F"\nplayers 1\npile hand\npile out\ndeck d { A }\n'
                             'turn { phase p { may "Go" { } else: move card "A" from hand to out } }\n'
                             'end "e" when round > 30\n', "f.rules")
    report = coverage(failing, games=4)
    assert report.errors and "seed" in report.errors[0] and "card A is not in hand" in report.errors[0]
    assert report.games == 4
    endless = rulelang.loads('game "E"\nplayers 1\nper player { x 0 }\n'
                             'turn { phase p { may "Up" { x += 1 } } }\n', "e.rules")
    report = coverage(endless, games=2, max_moves=50)
    assert report.unfinished == 2 and report.moves == 100
    assert "2 games were stopped unfinished" in report.format()


def test_the_report_reads_as_file_lines_and_data(small):
    """format() gives the summary and FILE:LINE lines; to_dict() is JSON;
    annotate() puts the counts in the margin."""
    report = coverage(small, games=10, players=2, seed=5)
    text = report.format()
    assert text.splitlines()[0] == (f"t.rules: {report.ran} of {report.total} statements ran in "
                                     f"10 games (2 players, sample chance, {report.moves} moves, "
                                     f"{report.turns} turns, {report.seconds:.1f}s)")
    assert f"t.rules:{at('rule never_runs')}: never called: rule never_runs  (1 statement)" in text
    line = at("if round > 1000: never_runs")
    assert f"t.rules:{line}:26: never ran (phase main): if round > 1000: »never_runs«" in text
    data = json.loads(json.dumps(report.to_dict()))
    assert data["players"] == [2] and data["statements_total"] == report.total
    assert {u["never"] for u in data["unreached"]} >= {"never called", "never came up"}
    margin = report.annotate(TEXT).splitlines()
    assert margin[at("rule never_runs") - 1].startswith("    #####")
    assert margin[at("        roll on events\n") - 1].split("|")[0].strip() == str(report.turns)
    with pytest.raises(ValueError, match="is for 1 to 2 players"):
        coverage(small, games=1, players=3)


def test_cli_coverage(tmp_path, capsys):
    """`rulelang coverage` prints the summary and each unreached line; exit
    0 (a report), 1 with --fail-if-unreached when something never ran; the
    JSON goes to a file; bad arguments are one line."""
    path = tmp_path / "t.rules"
    path.write_text(TEXT)
    assert main(["coverage", str(path), "--games", "12"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "statements ran in 12 games (1–2 players" in out[0]
    assert f"{path}:{at('rule never_runs')}: never called: rule never_runs  (1 statement)" in out
    assert main(["coverage", str(path), "--games", "12", "--fail-if-unreached",
                 "--json", str(tmp_path / "c.json"), "--players", "2"]) == 1
    capsys.readouterr()
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["file"] == str(path) and data["games"] == 12 and data["players"] == [2]
    pig = str(SHIPPED["pig.rules"])
    assert main(["coverage", pig, "--games", "30", "--fail-if-unreached", "--annotate"]) == 0
    out = capsys.readouterr().out
    assert "every statement ran" in out and " | game \"Pig\"" in out
    assert main(["coverage", str(path), "--players", "5"]) == 2
    assert capsys.readouterr().err.strip() == "error: T is for 1 to 2 players, not 5"
    assert main(["coverage", str(path), "--games", "0"]) == 2
    assert main(["coverage", str(path), "--param", "nope=1"]) == 1
    assert "unknown parameter 'nope'" in capsys.readouterr().err


def test_a_rule_asked_for_inline_is_counted():
    """A rule that only works out a value is called inline (not as a
    frame of its own): its calls and its statements still count, a
    statement of it that never runs is reported, and a rule never asked
    for is never called."""
    g = rulelang.loads('game "V"\nplayers 1\nper player { n 0 }\n'
                       'rule big (x) gives yes/no {\n    if x > 1000 {\n        give yes\n    }\n'
                       '    give no\n}\n'
                       'rule unused gives number { give 1 }\n'
                       'turn { phase p { if big(n): n += 5\n n += 1\n if round >= 3: end game "x" } }',
                       "v.rules")
    report = coverage(g, games=2)
    counts = report.by_line()
    assert counts[5] == 6 and counts[8] == 6 and counts[6] == 0   # three turns a game, two games
    text = report.format()
    assert "v.rules:6:" in text and "give yes" in text
    assert "never called: rule unused" in text and "never called: rule big" not in text


def test_a_policy_plays_the_games_in_place_of_random_picks():
    """With a policy, its picks are the moves: one that always takes the
    last alternative never reaches the first, which random play does."""
    g = rulelang.loads('game "P"\nplayers 1\nper player { n 0 }\n'
                       'turn { phase p {\n choose one "Act" {\n  "A": n += 1\n  "B": n += 2\n }\n'
                       ' if round >= 4: end game "x" } }', "p.rules")
    last = coverage(g, games=5, policy=lambda st, legal, rng: legal[-1]).by_line()
    assert last[6] == 0 and last[7] == 20
    assert coverage(g, games=5).by_line()[6] > 0
