"""Limits on work and size: the step limit counts the work inside a loop's
pass (dice, log lines, cards, pieces, rules called), not just the passes;
the state cannot grow without end (pools, the log, skipped phases); a
ruleset cannot declare more rows, stats or pieces than ``Limits`` allow;
the checker's time grows with its diagnostics, not their square.  Every
hostile ruleset here ends with a ``RulesetError`` that names its line,
after little work, in both ways of running rules (generated code, and op
by op)."""

from __future__ import annotations

import difflib
import pathlib
import random
from fractions import Fraction

import pytest

import rulelang
from rulelang import Limits, RulesetCheckError, RulesetRuntimeError
from rulelang import check as checker
from rulelang import errors
from rulelang.engine import codegen, ops
from rulelang.engine.state import State
from rulelang.testing import op_by_op
from helpers import line_of

HEAD = 'game "Work"\nplayers 1..1\nper player { x 0  y 0 }\n'
ONE_TURN = 'turn { phase p { end game "done" } }\n'
FILE = "work.rules"
RULESETS = pathlib.Path(__file__).resolve().parent.parent / "rulesets"


def phase(body, decls=""):
    return HEAD + decls + "turn { phase p {\n" + body + "\n} }\n"


def in_the_loop(err, text):
    """Whether ``err`` names the 'while' or a statement in its body (the
    one being carried out when the limit was reached)."""
    start = text.index("while")
    end = text.index("\n}", start)
    return line_of(text, "while") <= err.line <= text[:end].count("\n") + 1


def stopped(text, limits, how="generated", log=True, record=False):
    """Start a game of ``text``; (the state as the error left it, the
    ``RulesetRuntimeError``).  ``how``: generated code or op by op; with
    ``record``, ``chance_record`` keeps every roll (or die of a pool) made."""
    game = rulelang.loads(text, FILE, limits=limits)
    if how == "ops":
        game = op_by_op(game)
    st = game._new_state(None, 1, "sample", None, None, log)
    if record:
        st.chance_record = []
    with pytest.raises(RulesetRuntimeError) as info:
        st._run()
    err = info.value
    assert err.filename == FILE and err.line >= 1 and err.column >= 1
    return st, err


BOTH = pytest.mark.parametrize("how", ["generated", "ops"])
RUNAWAY = "steps without reaching a decision"


# ---------------------------------------------------------------- work inside a pass


@BOTH
def test_each_die_rolled_counts(how):
    """A loop rolling 100d100 a pass is stopped after a few passes, not
    after max_steps passes of 100 dice each."""
    text = phase("while yes {\n    x = roll 100d100\n}")
    st, err = stopped(text, Limits(max_steps=20_000), how, record=True)
    assert RUNAWAY in err.message and err.line == line_of(text, "while")
    assert 1 <= len(st.chance_record) <= 20_000 // 100


@BOTH
def test_each_die_of_a_pool_counts(how):
    text = phase("while yes {\n    let p = roll 100 dice d6\n}")
    st, err = stopped(text, Limits(max_steps=20_000), how, record=True)
    assert RUNAWAY in err.message
    assert 100 <= len(st.chance_record) <= 20_000 // ops.POOL_DIE + 100   # (each die recorded)


@BOTH
def test_each_value_logged_counts(how):
    """2 000 values logged a pass: a few passes, each a log entry."""
    text = phase('while yes {\n    log "' + "{x} " * 2000 + '"\n}')
    st, err = stopped(text, Limits(max_steps=50_000), how)
    assert RUNAWAY in err.message and in_the_loop(err, text)
    entries = [e for e in st.log if e.kind == "log"]
    assert 1 <= len(entries) <= 50_000 // 2000


@BOTH
def test_cards_moved_back_and_forth_count(how):
    text = phase("while yes {\n    move all from d to a\n    move all from a to d\n    y += 1\n}",
                 "deck d { A x500 }\npile a\n")
    st, err = stopped(text, Limits(max_steps=20_000), how)
    assert RUNAWAY in err.message and in_the_loop(err, text)
    assert 1 <= st.stat("y", 0) <= 20_000 // 1000


@BOTH
@pytest.mark.parametrize("log", [True, False])
def test_draws_that_refill_forever(how, log):
    """A draw of a billion cards into the pile its deck refills from goes
    round for ever: each refill counts the cards it moves."""
    text = phase("draw 1000000000 from d to hand",
                 "deck d refills from hand { A x5  B x5 }\npile hand\n")
    st, err = stopped(text, Limits(max_steps=20_000), how, log)
    assert RUNAWAY in err.message and err.line == line_of(text, "draw 1000000000")
    if log:
        assert len([e for e in st.log if e.kind == "draw"]) <= 20_000 // ops.CARD


@BOTH
def test_an_on_draw_that_puts_the_card_back(how):
    text = phase("draw 1000000000 from d to hand",
                 "deck d { A x3 }\npile hand\non draw from d as c { move c from hand to d }\n")
    st, err = stopped(text, Limits(max_steps=20_000), how)
    assert RUNAWAY in err.message
    assert len([e for e in st.log if e.kind == "draw"]) <= 20_000 // ops.FRAME


@BOTH
def test_a_draw_from_a_big_pile_counts_as_it_starts(how):
    """Drawing from a pile of many different cards finds each card's first
    copy (a scan): counted before the first card is drawn."""
    cards = "".join(f"  C{i}\n" for i in range(300))
    text = phase("draw 1000 from d to hand", f"deck d {{\n{cards}}}\npile hand\n")
    st, err = stopped(text, Limits(max_steps=10_000), how)
    assert RUNAWAY in err.message and err.line == line_of(text, "draw 1000")
    assert st.pile("hand", 0) == []


@BOTH
def test_a_long_pass_counts_its_statements(how):
    text = phase("while yes {\n" + "    x += 1\n" * 300 + "}")
    st, err = stopped(text, Limits(max_steps=20_000), how)
    assert RUNAWAY in err.message and in_the_loop(err, text)
    assert 300 <= st.stat("x", 0) <= 20_000


@BOTH
def test_pieces_looked_at_count(how):
    pieces = "pieces crew {\n" + "".join(f"  P{i}: v 1\n" for i in range(500)) + "}\n"
    text = phase("while yes {\n    x = count crew where v > 0\n    y += 1\n}", pieces)
    st, err = stopped(text, Limits(max_steps=50_000), how)
    assert RUNAWAY in err.message and in_the_loop(err, text)
    assert st.stat("x", 0) == 500 and 1 <= st.stat("y", 0) <= 50_000 // 500


@BOTH
def test_cards_looked_at_count(how):
    """A 'for each card' whose 'where' takes none, and a sum over a pile:
    each card looked at counts, though no pass of the body runs."""
    text = phase("while yes {\n    for each card in d as c where no { x += 1 }\n"
                 "    y += sum of v in d\n}", "deck d { A x500: v 1 }\n")
    st, err = stopped(text, Limits(max_steps=50_000), how)
    assert RUNAWAY in err.message and in_the_loop(err, text)
    assert st.stat("x", 0) == 0 and 500 <= st.stat("y", 0) <= 50_000


@BOTH
def test_a_call_tree_is_counted_before_it_runs(how):
    """Rules each calling the one below twice, 20 deep, are a million calls
    with no loop: their work is counted before the first one runs."""
    rules = "rule r0 { x += 1 }\n" + "".join(f"rule r{i} {{ r{i - 1}; r{i - 1} }}\n"
                                            for i in range(1, 21))
    text = phase("r20", rules)
    st, err = stopped(text, Limits(max_steps=20_000), how)
    assert RUNAWAY in err.message
    assert st.stat("x", 0) <= 20_000 // ops.CALL


@BOTH
def test_recursion_counts_each_call(how):
    text = phase("r(40)", "rule r (n) { if n > 0 {\n    r(n - 1)\n    r(n - 1) } }\n")
    st, err = stopped(text, Limits(max_steps=20_000), how)
    assert RUNAWAY in err.message and "in rule r" in err.message
    assert err.line in (line_of(text, "r(n - 1)"), line_of(text, "r(n - 1)") + 1)


@BOTH
def test_endless_turns(how):
    text = HEAD + "turn { phase p { x += 1 } }\n"
    st, err = stopped(text, Limits(max_steps=20_000), how)
    assert RUNAWAY in err.message and err.line == line_of(text, "turn")
    assert 1 <= st.stat("x", 0) <= 20_000 // ops.TURN


def test_a_legal_game_stays_far_below_the_default():
    """The shipped rulesets do far less work between two moves than the
    default allows: whole random games play with a twentieth of it."""
    limits = Limits(max_steps=Limits().max_steps // 20)
    for name in ("northpole", "endurance"):
        game = rulelang.load(RULESETS / f"{name}.rules", limits=limits)
        for seed in range(3):
            st = game.new_game(seed=seed)
            rng = random.Random(seed)
            while not st.is_over:
                st.apply(rng.choice(st.legal_moves()))


def test_a_move_begins_its_own_count(monkeypatch):
    """Work counted as a move is taken (a row chosen starts its table) is
    not added to the work of the move before."""
    text = HEAD + ("table t d6 { 1..6: x += 1 }\nturn { phase p {\n    repeat 200 times: y += 1\n"
                   "    choose a row of t 1..6\n} }\n")
    seen = []
    real = State.wait
    monkeypatch.setattr(State, "wait", lambda st, kind, actor: seen.append(st.steps) or
                        real(st, kind, actor))
    game = rulelang.loads(text, FILE)
    st = game.new_game(seed=1)
    st.apply(st.legal_moves()[0])
    move = max(seen)                                    # a move's work, up to its wait
    row = game.prog.push_cost[game.prog.table_code["t"]]   # counted as the row is chosen
    game = rulelang.loads(text, FILE, limits=Limits(max_steps=move + row // 2))
    st = game.new_game(seed=1)
    for _ in range(5):
        st.apply(st.legal_moves()[0])
    assert st.stat("x", 0) == 5


def test_the_work_a_move_counts_as_it_is_taken_stays_in_its_count():
    """A row chosen starts its table, and that work (counted as the choice
    is taken, ``ChooseRowOp.resume``) stays in the move's count with the
    rest of its work: a limit between the two stops the move, which leaves
    the state as it was; through ``Game.playouts`` too."""
    text = HEAD + ("table t d6 { 1..3: x += 1, x += 1, x += 1\n 4..6: y += 1, y += 1, y += 1 }\n"
                   "turn { phase p { choose a row of t 1..6 } }\nend \"done\" when round > 3\n")
    game = rulelang.loads(text, FILE)
    row, turn = game.prog.push_cost[game.prog.table_code["t"]], game.prog.turn_cost
    st = game.new_game(seed=1)
    st.apply(st.legal_moves()[0])
    assert st.steps >= row + turn          # the row, and the next turn up to its choice
    tight = rulelang.loads(text, FILE, limits=Limits(max_steps=row + turn - 1))
    st = tight.new_game(seed=1)
    before = st.to_json()
    with pytest.raises(RulesetRuntimeError, match="max_steps"):
        st.apply(st.legal_moves()[0])
    assert st.to_json() == before
    with pytest.raises(RulesetRuntimeError, match="max_steps"):
        tight.playouts(1)
    assert [r.scores for r in game.playouts(3)]     # (with room, the same games end)


# ---------------------------------------------------------------- bounded state


@BOTH
@pytest.mark.parametrize("grow", ["held = held + held", "held += held", "let held = held + held"])
def test_a_pool_doubled_in_a_loop(how, grow):
    text = phase(f"let held = roll 1 dice d6\nwhile yes {{\n    {grow}\n}}")
    _, err = stopped(text, Limits(), how)
    assert "a pool of 128 dice is more than the limit of 100 (Limits.max_dice)" in err.message
    assert err.line == line_of(text, grow)


def test_pools_up_to_the_limit_may_be_put_together():
    text = phase('let held = roll 50 dice d6\nheld = held + held\nx = size of held\nend game "done"')
    assert rulelang.loads(text).new_game(seed=1).stat("x", 0) == 100


def test_a_log_flood_across_many_moves():
    """Each move adds 50 log entries; the log stops the game at
    max_log_entries (the move that would go past it is refused, the
    state as it was)."""
    text = HEAD + ('turn { phase p {\n    repeat 50 times: log "again"\n'
                   '    may "go on" { x += 1 }\n} }\n')
    game = rulelang.loads(text, FILE, limits=Limits(max_log_entries=1000))
    st = game.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError) as info:
        for _ in range(100):
            st.apply(st.legal_moves()[0])
    err = info.value
    assert "more than 1000 entries (Limits.max_log_entries)" in err.message
    assert err.line == line_of(text, "log")
    assert 900 < len(st.log) <= 1000


def test_long_log_lines_count_for_more():
    """An entry counts one more for each LOG_CHARACTERS characters, so the
    log's size is bounded, not only its number of entries."""
    text = HEAD + ('turn { phase p {\n    x = 1234567890\n    log "' + "{x}" * 100 + '"\n'
                   '    may "go on" { y += 1 }\n} }\n')
    game = rulelang.loads(text, FILE, limits=Limits(max_log_entries=100))
    st = game.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match=r"Limits\.max_log_entries"):
        for _ in range(100):
            st.apply(st.legal_moves()[0])
    assert len(st.log) <= 100 // (1 + 1000 // ops.LOG_CHARACTERS) * 4


def test_a_log_line_is_cut_at_max_text():
    text = phase('x = 1234567890\nlog "' + "{x}" * 20 + '"\nend game "done"')
    st = rulelang.loads(text, limits=Limits(max_text=100)).new_game(seed=1)
    line = [e.text for e in st.log if e.kind == "log"][0]
    assert line == "1234567890" * 9 + "123456789…" and len(line) == 100


def test_skipped_phases_do_not_pile_up():
    text = HEAD + ('turn { phase p {\n    repeat 1000 times: skip q\n    may "go on" { x += 1 }\n}'
                   '  phase q { y += 1 } }\n')
    st = rulelang.loads(text).new_game(seed=1)
    assert st.skips == ("q",)


def test_a_state_that_could_hold_too_many_values():
    lets = "".join(f"    let v{i} = {i}\n" for i in range(200))
    text = HEAD + f"rule big {{\n{lets}}}\n" + "turn { phase p { big } }\n"
    with pytest.raises(RulesetCheckError) as info:
        rulelang.loads(text, FILE, limits=Limits(max_values=10_000))
    assert "(Limits.max_values)" in info.value.message and info.value.line == line_of(text, "rule big")
    rulelang.loads(text, FILE)


def test_many_chosen_cards_move_as_one_by_one_would():
    """ops.take_cards (used for many cards) leaves both piles exactly as
    moving the cards one at a time does, and names the first missing card."""
    rng = random.Random(3)
    for _ in range(200):
        a = [rng.randrange(6) for _ in range(rng.randrange(30))]
        picked = [rng.randrange(7) for _ in range(rng.randrange(12))]
        one, b1 = list(a), []
        missing = None
        for c in picked:
            if c not in one:
                missing = c
                break
            one.remove(c)
            b1.append(c)
        many, b2 = list(a), []
        if missing is None:
            ops.take_cards(many, b2, tuple(picked), "no %s", [f"C{i}" for i in range(7)])
            assert (many, b2) == (one, b1)
        else:
            with pytest.raises(ops.RuleFault, match=f"no C{missing}$"):
                ops.take_cards(many, b2, tuple(picked), "no %s", [f"C{i}" for i in range(7)])


# ---------------------------------------------------------------- declarations


@pytest.mark.parametrize("limits, decls, needle, words", [
    (Limits(max_rows=5), "table a d3 { 1: x += 1  2: x += 1  3: x += 1 }\n"
                         "table b d3 { 1: x += 1  2: x += 1  3: x += 1 }\n",
     "table b", "the tables and scales have 6 rows in all; the limit is 5 (Limits.max_rows)"),
    (Limits(max_pieces=3), "pieces a {\n  A1\n  A2\n}\npieces b {\n  B1\n  B2\n}\n",
     "pieces b", "the piece sets hold 4 pieces in all; the limit is 3 (Limits.max_pieces)"),
    (Limits(max_stats=5), "const c = 1\npieces a {\n  state { v 0  w 0 }\n  A1\n  A2\n}\n",
     "pieces a", "come to 7; the limit is 5 (Limits.max_stats)"),
    (Limits(max_stats=2), "const c = 1\n", "const c",
     "come to 3; the limit is 2 (Limits.max_stats)"),
    (Limits(max_cards=10), "deck d { A x6 }\ndeck e { B x6 }\n",
     "deck e", "the decks hold 12 cards; the limit is 10 (Limits.max_cards)"),
])
def test_declarations_past_a_limit(limits, decls, needle, words):
    """Rows, pieces, stats (with piece values and constants) and cards over
    the whole ruleset: an error at the declaration that goes past."""
    text = HEAD + decls + 'turn { phase p { end game "done" } }\n'
    with pytest.raises(RulesetCheckError) as info:
        rulelang.loads(text, FILE, limits=limits)
    err = info.value
    assert words in err.message and err.line == line_of(text, needle)
    rulelang.loads(text, FILE)


def test_a_table_with_every_row_overlapping_is_one_error_a_row():
    rows = "".join(f"    1..400 R{i}: x += 1\n" for i in range(400))
    text = HEAD + f"table t d400 {{\n{rows}}}\n" + 'turn { phase p { roll on t } }\n'
    with pytest.raises(RulesetCheckError) as info:
        rulelang.loads(text, FILE)
    found = [d for d in info.value.diagnostics if "two rows for a roll of 1" in d.message]
    assert len(found) == len(info.value.diagnostics) == 399


# ---------------------------------------------------------------- the checker is linear


def test_warnings_split_the_source_once(monkeypatch):
    """Thousands of warnings (unused rules) and errors (unknown names): the
    source is split into lines once, not once a diagnostic."""
    calls = []
    real = errors._split
    monkeypatch.setattr(errors, "_split", lambda source: calls.append(1) or real(source))
    rules = "".join(f"rule r{i} {{ x += y{i} }}\n" for i in range(1000))
    rs = rulelang.syntax.parse(HEAD + rules + ONE_TURN, FILE)
    found, warnings = checker.check_all(rs)
    assert len(warnings) == 1000 and len(found) == 1000
    assert len(calls) == 1


def test_suggestions_stop_at_a_budget(monkeypatch):
    """'did you mean' compares each unknown name with every known one;
    past SUGGESTION_BUDGET names looked at, no more suggestions."""
    looked = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches",
                        lambda name, known, **kw: looked.append(len(known)) or real(name, known, **kw))
    stats = "".join(f"  s{i} 0\n" for i in range(500))
    rules = "".join(f"rule r{i} {{ x += q{i} }}\n" for i in range(500))
    rs = rulelang.syntax.parse(HEAD + f"per player {{\n{stats}}}\n" + rules + ONE_TURN, FILE)
    assert len(checker.check(rs)) == 500        # every unknown name still reported
    assert sum(looked) <= checker.SUGGESTION_BUDGET + 1000     # (500 x 500 without it)


def test_nested_blocks_share_the_locals_around_them():
    scope = checker.Scope(player=True)
    scope.locals["a"] = checker.NUM
    inner = scope.branch()
    inner.locals["b"] = checker.NUM
    assert "a" in inner.locals and "b" not in scope.locals
    assert inner.locals.maps[1] is scope.locals.maps[0]      # shared, not copied


def test_a_long_source_line_is_shown_around_the_column():
    text = HEAD + "rule r { " + "x += 1; " * 500 + "x += nope }\n" + ONE_TURN
    with pytest.raises(RulesetCheckError) as info:
        rulelang.loads(text, FILE)
    shown = info.value.format()
    assert "unknown name 'nope'" in shown and len(shown) < 400
    source, caret = shown.splitlines()[-2:]
    assert source[caret.index("^"):].startswith("nope")


# ---------------------------------------------------------------- big rulesets load


def test_a_code_too_long_for_one_function_runs_op_by_op(monkeypatch):
    """A table too big to be written out as one function is run op by op
    (each row's statements compiled when first rolled), and plays alike."""
    monkeypatch.setattr(codegen, "MOST_LINES", 200)
    rows = "".join(f"    {i} R{i}: x += {i}\n" for i in range(1, 101))
    text = HEAD + f"table t d100 {{\n{rows}}}\n" + \
        'turn { phase p { roll on t; roll on t; end game "done" } }\n'
    game = rulelang.loads(text, FILE)
    st = game.new_game(seed=5)
    code = game.prog.table_code["t"]
    assert game.prog.runners[code] is codegen.op_by_op
    assert game.prog.runners[game.prog.turn_code] is not codegen.op_by_op
    rolled = [e.value for e in st.log if e.kind == "roll"]
    assert len(rolled) == 2 and st.stat("x", 0) == sum(rolled)


def test_big_rolls_work_out_their_odds_only_when_asked():
    """The exact odds of 100d100 are not worked out at load (they took
    seconds); explicit chance mode works them out on first use."""
    text = phase('x = roll 100d100\nend game "done"')
    game = rulelang.loads(text)
    rolls = [op for code in game.prog.codes for op in code if isinstance(op, ops.RollOp)]
    assert rolls and all(op.dist is None for op in rolls if op.count == 100)
    assert rulelang.loads(phase('x = roll 2d6\nend game "done"')).new_game(
        seed=1, chance="explicit").legal_moves()[5].probability == Fraction(6, 36)
