"""Hostile rulesets: each fails fast, with a clear RulesetError that names
a line and column, in bounded memory — never a hang, a crash, a
RecursionError or a MemoryError.  And the limits behind that are one
documented set an embedding program can change (rulelang.Limits)."""

from __future__ import annotations

import time
import tracemalloc

import pytest

import rulelang
from rulelang import Limits, RulesetError, RulesetRuntimeError, RulesetSyntaxError
from rulelang.limits import DEFAULT
from helpers import line_of

HEAD = 'game "Hostile"\nplayers 1..2\nper player { x 2 }\n'
ONE_TURN = '\nturn { phase p { end game "done" } }\n'

#: Generous bounds: these inputs take milliseconds, not seconds.
MAX_SECONDS = 30     # a hang guard, not a speed goal: these take well under a second
MAX_BYTES = 120_000_000


def attempt(text, *, play=True, limits=None, filename="hostile.rules"):
    """Load (and play up to 200 moves of) ``text``; return the RulesetError
    it raises, checking time and memory.  Fails when nothing is raised."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        game = rulelang.loads(text, filename, limits=limits)
        if play:
            for chance in ("sample", "explicit"):
                state = game.new_game(players=game.min_players, seed=1, chance=chance)
                for _ in range(200):
                    if state.is_over:
                        break
                    state.apply(state.legal_moves()[0])
    except RulesetError as e:
        err = e
    else:
        err = None
    finally:
        seconds = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert err is not None, "the hostile ruleset was accepted"
    assert seconds < MAX_SECONDS, f"took {seconds:.1f}s"
    assert peak < MAX_BYTES, f"used {peak / 1e6:.0f} MB"
    assert err.filename == filename
    assert isinstance(err.line, int) and err.line >= 1 and isinstance(err.column, int) and err.column >= 1
    assert err.format().startswith(f"{filename}:{err.line}:{err.column}: ")
    return err


# ---------------------------------------------------------------- endless work


def test_effect_that_loops_forever():
    """A loop that never waits for anyone is stopped by the step limit,
    at the loop's line."""
    text = HEAD + "turn { phase p {\n    while yes { x += 1 }\n} }\n"
    err = attempt(text)
    assert isinstance(err, RulesetRuntimeError)
    assert err.line == 5 and f"{DEFAULT.max_steps} steps" in err.message


def test_repeat_a_billion_times():
    text = HEAD + "turn { phase p {\n    repeat 1000000000 times: x += 1\n} }\n"
    err = attempt(text)
    assert "steps without reaching a decision" in err.message


@pytest.mark.parametrize("rules", [
    "rule again { x += 1; again }\nturn { phase p { again } }",
    "rule ping { pong }\nrule pong { ping }\nturn { phase p { ping } }",
    # a reaction that sets off itself
    "whenever x > 5 { x = 0; x = 9 }\nturn { phase p { x = 9 } }",
])
def test_unbounded_recursion(rules):
    """Rules (or reactions) calling each other without end stop at the
    depth limit."""
    err = attempt(HEAD + rules + "\n")
    assert f"more than {DEFAULT.max_depth} levels deep" in err.message
    assert err.line == 4        # the rule (or reaction) being started, not the file's first line


def test_numbers_that_explode():
    """Squaring a number again and again stops at the number limit instead
    of filling memory with a billion-digit integer."""
    text = HEAD + "turn { phase p {\n    while yes { x = x * x + 1 }\n} }\n"
    err = attempt(text)
    assert "Limits.max_number" in err.message and err.line == 5


def test_doubling_with_plus_equals():
    text = HEAD + "turn { phase p {\n    while yes { x += x }\n} }\n"
    err = attempt(text)
    assert "Limits.max_number" in err.message


def test_a_constant_too_large():
    text = HEAD + "const big = 9007199254740991 * 9007199254740991\n" + ONE_TURN
    err = attempt(text, play=False)
    assert err.line == 4 and "larger than" in err.message


def test_a_choice_with_too_many_answers():
    """Choosing up to 20 of 40 different cards would offer billions of
    moves; the choice is refused instead."""
    cards = "\n".join(f"    C{i}" for i in range(60))
    text = (HEAD + f"deck d {{\n{cards}\n}}\npile hand per player\n"
            "turn { phase p {\n    draw 40 from d to hand\n"
            '    choose up to 20 cards from hand as keep "keep"\n    end game "done"\n} }\n')
    err = attempt(text)
    assert "Limits.max_choices" in err.message
    assert err.line == line_of(text, "choose up to")


# ---------------------------------------------------------------- huge declarations


def test_a_pool_of_a_billion_dice():
    err = attempt(HEAD + "turn { phase p { x = roll 1000000000d6 } }\n", play=False)
    assert f"1 to {DEFAULT.max_dice} dice" in err.message and err.line == 4


def test_a_pool_of_a_billion_dice_worked_out_while_playing():
    """'roll N dice d6' with N known only while playing stops at max_dice
    before rolling anything."""
    text = HEAD + "turn { phase p {\n    let p = roll (x * 500000000) dice d6\n} }\n"
    err = attempt(text)
    assert isinstance(err, RulesetRuntimeError)
    assert err.line == 5 and f"limit of {DEFAULT.max_dice}" in err.message


def test_a_pool_with_too_many_outcomes():
    err = attempt(HEAD + "turn { phase p { x = roll 100d10000 } }\n", play=False)
    assert "too many outcomes" in err.message


def test_a_deck_of_ten_million_cards():
    err = attempt(HEAD + "deck d { Trek x10000000 }\n" + ONE_TURN, play=False)
    assert f"the limit is {DEFAULT.max_cards}" in err.message and err.line == 4


def test_a_million_players():
    err = attempt('game "Crowd"\nplayers 1..1000000\n' + ONE_TURN, play=False)
    assert f"at most {DEFAULT.max_players} players" in err.message and err.line == 2


def test_a_die_with_a_billion_sides():
    err = attempt(HEAD + "table t d1000000000 { 1 A: x += 1 }\n" + ONE_TURN, play=False)
    assert "sides" in err.message


# ---------------------------------------------------------------- huge and deep text


def test_a_ten_megabyte_file():
    text = HEAD + "#" * 10_000_000 + "\n"
    err = attempt(text, play=False)
    assert isinstance(err, RulesetSyntaxError)
    assert f"larger than the limit of {DEFAULT.max_source_bytes} bytes" in err.message


def test_a_ten_megabyte_file_on_disk_is_not_read_whole(tmp_path):
    """load() reads no more than the limit (plus one byte) of a big file."""
    path = tmp_path / "big.rules"
    path.write_text(HEAD + "#" * 10_000_000 + "\n")
    tracemalloc.start()
    with pytest.raises(RulesetSyntaxError, match="larger than the limit"):
        rulelang.load(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 4 * DEFAULT.max_source_bytes + 10_000_000 // 2


@pytest.mark.parametrize("digits", [1000, 5000, 100_000])
@pytest.mark.parametrize("where", ["x = {n}", "x = roll d{n}", "x = roll {n}d6", "repeat {n} times: x += 1"])
def test_a_number_with_a_thousand_digits(digits, where):
    """A number too large is a syntax error at the number (not Python's
    int() refusing more than 4300 digits)."""
    stmt = where.format(n="7" * digits)
    text = HEAD + "turn { phase p {\n    " + stmt + "\n} }\n"
    err = attempt(text, play=False)
    assert isinstance(err, RulesetSyntaxError)
    assert "too large" in err.message and err.line == 5
    assert len(err.message) < 200


def test_numbers_up_to_the_limit_load():
    big = DEFAULT.max_number
    game = rulelang.loads(HEAD + f"turn {{ phase p {{ x = {big}; x = 0 - {big}; end game \"done\" }} }}\n")
    state = game.new_game(seed=1)
    assert state.stat("x", 0) == -big


def test_a_card_count_with_a_thousand_digits():
    err = attempt(HEAD + "deck d { Trek x" + "9" * 1000 + " }\n" + ONE_TURN, play=False)
    assert "too large" in err.message and err.line == 4


@pytest.mark.parametrize("depth", [201, 1000, 100_000])
def test_nested_brackets(depth):
    """Brackets nested past the limit: an error at the first bracket too
    deep, found without recursion."""
    text = HEAD + "turn { phase p {\n    x = " + "(" * depth + "1" + ")" * depth + "\n} }\n"
    err = attempt(text, play=False)
    assert f"more than {DEFAULT.max_nesting} levels" in err.message
    assert err.line == 5


def test_brackets_in_text_and_comments_do_not_count():
    """Quoted text and comments may hold any number of brackets."""
    text = (HEAD + "# " + "(" * 500 + "\n" + 'turn { phase p { log "' + "{" * 500 + '"; end game "done" } }\n')
    assert rulelang.loads(text).title == "Hostile"


@pytest.mark.parametrize("make", [
    lambda n: "    x = " + "- " * n + "x\n",                        # unary minus
    lambda n: "    if " + "not " * n + "yes: x = 1\n",             # not
    lambda n: "    x = 1" + " + 1" * n + "\n",                       # a long chain
    lambda n: "    " + "if yes: " * n + "x = 1\n",                   # nested ifs without brackets
    lambda n: "    if no: x = 1\n" + "    else if no: x = 1\n" * n,  # else if
    lambda n: "    " + "repeat 1 times: " * n + "x += 1\n",          # nested loops
])
@pytest.mark.parametrize("depth", [1000, 5000])
def test_nesting_a_thousand_levels_without_brackets(make, depth):
    """Nesting that needs no brackets is measured on the tree, without
    recursion, and refused at the place where it gets too deep."""
    text = HEAD + "turn { phase p {\n" + make(depth) + "} }\n"
    err = attempt(text, play=False)
    assert isinstance(err, RulesetSyntaxError)
    assert f"more than {DEFAULT.max_nesting} levels" in err.message
    assert err.line >= 5


def test_nesting_just_within_the_limit_loads_checks_and_plays():
    """Close to the limit everything still works: parser, checker,
    compiler, the repr behind the fingerprint and the rule machine."""
    depth = DEFAULT.max_nesting - 10
    text = HEAD + "turn { phase p {\n    x = " + "- " * depth + "x\n" + "    " + "if yes: " * (depth // 2) + \
        "x += 1\n    end game \"done\"\n} }\n"
    game = rulelang.loads(text)
    state = game.new_game(seed=1)
    assert state.is_over and state.stat("x", 0) == 3     # an even number of minus signs


# ---------------------------------------------------------------- limits an embedder sets


def test_limits_are_one_set_with_the_old_constructor():
    """rulelang.Limits(max_steps=..., max_depth=...) still works, and also
    holds the load-time limits."""
    limits = rulelang.Limits(max_steps=5, max_depth=7)
    assert (limits.max_steps, limits.max_depth) == (5, 7)
    assert limits.max_source_bytes == DEFAULT.max_source_bytes
    assert rulelang.Limits(10, 20).max_depth == 20
    with pytest.raises(ValueError):
        rulelang.Limits(max_steps=0)
    with pytest.raises(ValueError):
        rulelang.Limits(max_nesting="deep")


@pytest.mark.parametrize("limits, text, words", [
    (Limits(max_source_bytes=50), HEAD + ONE_TURN, "larger than the limit of 50 bytes"),
    (Limits(max_nesting=5), HEAD + "turn { phase p { x = ((((((1)))))) } }\n", "more than 5 levels"),
    (Limits(max_number=1000), HEAD + "turn { phase p { x = 1001 } }\n", "numbers go up to 1000"),
    (Limits(max_players=3), 'game "G"\nplayers 1..4\n' + ONE_TURN, "at most 3 players"),
    (Limits(max_die_sides=6), HEAD + "turn { phase p { x = roll d8 } }\n", "more than 6 sides"),
    (Limits(max_dice=2), HEAD + "turn { phase p { x = roll 3d6 } }\n", "1 to 2 dice"),
    (Limits(max_pool_outcomes=10), HEAD + "turn { phase p { x = roll 2d6 } }\n", "too many outcomes"),
    (Limits(max_cards=10), HEAD + "deck d { A x11 }\n" + ONE_TURN, "the limit is 10"),
])
def test_an_embedder_can_tighten_every_load_limit(limits, text, words):
    """Each load-time limit is taken from the Limits given to loads(), and
    the same text loads with the defaults."""
    with pytest.raises(RulesetError) as info:
        rulelang.loads(text, limits=limits)
    assert words in info.value.message
    rulelang.loads(text)


def test_an_embedder_can_loosen_a_limit():
    text = HEAD + "turn { phase p { x = " + "(" * 300 + "1" + ")" * 300 + "; end game \"done\" } }\n"
    with pytest.raises(RulesetSyntaxError):
        rulelang.loads(text)
    game = rulelang.loads(text, limits=Limits(max_nesting=400))
    assert game.new_game(seed=1).stat("x", 0) == 1


def test_a_roll_past_the_default_outcomes_is_listed_when_the_limit_is_raised():
    """Loosening ``max_pool_outcomes`` lets a roll of more outcomes than the
    default be offered exactly at a chance node (it was a TypeError)."""
    text = HEAD + "turn { phase p { x = roll 100d120\n end game \"done\" } }\n"
    with pytest.raises(RulesetError, match="too many outcomes"):
        rulelang.loads(text)
    game = rulelang.loads(text, limits=Limits(max_pool_outcomes=20_000))
    st = game.new_game(seed=1, chance="explicit")
    moves = st.legal_moves()
    assert len(moves) == 100 * 120 - 100 + 1 and sum(m.probability for m in moves) == 1
    assert st.apply("roll 6000").stat("x", 0) == 6000


def test_run_limits_come_from_the_game_and_can_be_overridden(tmp_path):
    """The Limits given to load()/loads() are the game's defaults for
    new_game and restore; new_game(limits=...) overrides them."""
    text = HEAD + "turn { phase p {\n    repeat 50 times: x += 1\n    end game \"done\"\n} }\n"
    strict = Limits(max_steps=20)
    game = rulelang.loads(text, limits=strict)
    assert game.limits == strict
    with pytest.raises(RulesetRuntimeError, match="ran 20 steps"):
        game.new_game(seed=1)
    assert game.new_game(seed=1, limits=Limits()).stat("x", 0) == 52
    path = tmp_path / "g.rules"
    path.write_text(text)
    assert rulelang.load(path, limits=strict).limits == strict


def test_restore_keeps_the_games_limits():
    # (max_steps counts work: the first move, a turn begun, is some hundreds
    # of steps; the 3000 passes after the choice, thousands.)
    text = HEAD + 'turn { phase p { choose one "go" { "a": x += 1  "b": x += 2 }\n repeat 3000 times: x += 1 } }\n'
    game = rulelang.loads(text, limits=Limits(max_steps=2000))
    state = game.new_game(seed=1)
    restored = game.restore(state.to_json())
    assert restored.limits == game.limits
    with pytest.raises(RulesetRuntimeError, match="ran 2000 steps"):
        restored.apply("a")


def test_idle_seat_limit_is_adjustable():
    text = 'game "Never"\nplayers 1..2\nper player { x 0 }\nturn when x > 0 { phase p { x += 1 } }\n'
    with pytest.raises(RulesetError, match="no player can take a turn"):
        rulelang.loads(text, limits=Limits(max_idle_seats=10)).new_game(seed=1)


@pytest.mark.parametrize("rows", [
    "1..9007199254740991 A: x += 1",
    "1..9007199254740991 A: x += 1  2..9007199254740990 B: x += 1",
])
def test_a_table_row_of_a_billion_rolls_is_judged_at_once(rows):
    """The checker judges a table's rows by their ranges, never roll by
    roll: a row spanning 2**53 rolls (on a die the checker refuses) is an
    error at once, not an endless loop."""
    text = HEAD + f"table t d9007199254740991 {{ {rows} }}\n" + ONE_TURN
    err = attempt(text, play=False)
    assert "sides" in err.message and err.line == 4
