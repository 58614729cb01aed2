"""Queries over pieces and spaces that the compiler answers without a scan
(issue 20): the parts of a 'where' that read only fixed attributes decided
once, at compile time; ``FIELD is VALUE`` read as one slice of the state;
walks along a line comparing values, not calling a function per space.
Each must answer exactly what the plain loop answers: these tests compare
them with the answer worked out here in Python from the state."""

from __future__ import annotations

import random
import re

import pytest

import rulelang
from rulelang.engine import codegen
from helpers import ROOT

FOUR = ROOT / "examples" / "connect_four.rules"

QUERIES = '''game "Queries"
players 2
board cells grid 4 wide 3 high { state { mark none  worth 0 } }
per player { tops 0  marked 0  free 0  nothing 0  wide 0  big 0 }
turn {
    phase mark {
        choose one cells as c where y is 3 and mark is none and x > 1 "Mark"
        c.mark = this player
        c.worth = c.x + c.y
        tops = count cells where y is 3 and mark is none
        marked = count cells where mark is this player
        free = count cells where mark is none
        if any of cells where x > 9 { nothing = 1 }
        if none of cells where x is 1 and y is 1 { nothing = 2 }
        wide = count cells where x >= 1
        big = highest worth among cells where y is 3 and mark is not none
        if none of cells where y is 3 and mark is none and x > 1 { end game "full" }
    }
}
'''


def _cells(st):
    names = st.prog.piece_names["cells"]
    return [dict(st.piece("cells", n), name=n) for n in names]


def test_fixed_parts_are_decided_once_and_give_the_plain_answer():
    """Every query on the 4×3 board, played at random, against the answer
    from the spaces themselves."""
    game = rulelang.loads(QUERIES)
    for seed in range(6):
        st = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            cells = _cells(st)
            offered = sorted(m.label.split(": ")[-1] for m in st.legal_moves())
            expect = sorted(c["name"] for c in cells
                            if c["y"] == 3 and c["mark"] is None and c["x"] > 1)
            assert offered == expect
            p = st.current_player
            st.apply(rng.choice(st.legal_moves()))
            cells = _cells(st)
            assert st.stat("tops", p) == sum(1 for c in cells if c["y"] == 3 and c["mark"] is None)
            assert st.stat("marked", p) == sum(1 for c in cells if c["mark"] == p)
            assert st.stat("free", p) == sum(1 for c in cells if c["mark"] is None)
            assert st.stat("nothing", p) == 0
            assert st.stat("wide", p) == 12
            assert st.stat("big", p) == max(c["worth"] for c in cells
                                            if c["y"] == 3 and c["mark"] is not None)


def test_the_compiled_queries_read_no_space_they_need_not():
    """The generated source of the turn: 'mark is this player' and 'mark is
    none' counted in one slice of the state; 'y is 3 and mark is none'
    looks at a constant tuple of the top row's spaces; a count or a
    search that reads only fixed attributes is a constant."""
    game = rulelang.loads(QUERIES)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    assert "st.g[0:23:2].count(fr[2])" in src
    assert "st.g[0:23:2].count(None)" in src
    assert "range(12)" not in src
    tops = [c for c in prog.gen_consts if isinstance(c, tuple) and len(c) == 4
            and all(type(i) is int for i in c)]
    assert [prog.piece_names["cells"][i] for i in tops[0]] == ["a3", "b3", "c3", "d3"]
    assert re.search(r"_t\d+ := 12\)", src), "'count cells where x >= 1' is the number 12"


def _four_through(board, x, y, who):
    """Whether ``who`` has four in a row through (x, y): counted here, by
    hand, along the four lines."""
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while board.get((cx, cy)) == who:
                run += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if run >= 4:
            return True
    return False


@pytest.mark.parametrize("seed", range(8))
def test_connect_four_walks_answer_what_the_board_shows(seed):
    """The falling disc ('farthest south … where disc is none') lands on
    the lowest empty space of its column, and 'four in a row through s'
    ends the game exactly when the board, counted by hand, has four of
    the mover's discs in a row through it (both read one list of the
    spaces' values, not a function per space)."""
    st = rulelang.load(FOUR).new_game(seed=seed)
    rng = random.Random(seed)
    names = st.prog.piece_names["cells"]
    while not st.is_over:
        before = {n: st.piece("cells", n)["disc"] for n in names}
        who = st.current_player
        move = rng.choice(st.legal_moves())
        column = move.label.split(": ")[-1][0]
        st.apply(move)
        after = {n: st.piece("cells", n)["disc"] for n in names}
        placed = [n for n in names if before[n] != after[n]]
        lowest = min((n for n in names if n[0] == column and before[n] is None),
                     key=lambda n: int(n[1:]))
        assert placed == [lowest]
        board = {(ord(n[0]) - 96, int(n[1:])): d for n, d in after.items() if d is not None}
        x, y = ord(lowest[0]) - 96, int(lowest[1:])
        four = _four_through(board, x, y, who)
        assert four == (st.over == "four in a row"), (seed, lowest)
        assert st.is_over or not four


TIC = ROOT / "examples" / "tic_tac_toe.rules"


def test_what_a_waiting_choice_offers_is_never_stale():
    """A choice keeps what it offers as it starts waiting (so the moves are
    not worked out twice), but a change from outside the rules (a tool
    setting a space), a clone, a failed move and a restored save all ask
    again: the moves are always those of the state as it is."""
    game = rulelang.load(TIC)
    st = game.new_game(seed=1)
    st.apply("b2")
    offered = lambda s: sorted(m.label for m in s.legal_moves())  # noqa: E731
    choices = lambda s: sorted(  # noqa: E731
        s.prog.piece_names["cells"][i]
        for i in s.prog.codes[s.stack[-1][0]][s.stack[-1][1]].choices(s, s.stack[-1]))
    assert "a1" in offered(st) and "a1" in choices(st)
    st.set_piece("cells", "a1", "mark", 0)
    assert "a1" not in offered(st) and "a1" not in choices(st)
    twin = st.clone()
    twin.set_piece("cells", "c3", "mark", 0)
    assert "c3" not in offered(twin) and "c3" not in choices(twin)
    assert "c3" in offered(st) and "c3" in choices(st)
    back = game.restore(st.to_json())
    assert offered(back) == offered(st) and choices(back) == choices(st)


ARITH = '''game "Sums"
players 1
const step = 3
per player { low 0 min 0 max 9  high 0 min -5 max 20  free 0  total 0  far 0 }
turn {
    phase p {
        total = low + high * step
        far = free + free + 1
        free += 800000
        low += 4
        if free >= 2400000: end game "done"
        high = 20
    }
}
'''


def test_arithmetic_on_bounded_values_needs_no_check_and_gives_the_same():
    """'low + high * step' with low in 0..9, high in -5..20 and a constant
    cannot pass Limits.max_number: it is written without the check; 'free +
    free + 1' (free has no bounds) keeps it, and past the limit it still
    stops the game with the limit's message; '+=' keeps its clamp."""
    from rulelang import Limits, RulesetRuntimeError
    game = rulelang.loads(ARITH)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    line = next(ln for ln in src.splitlines() if "st.v[fr[2] * 5 + 3] =" in ln)
    assert "(st.v[fr[2] * 5] + (st.v[fr[2] * 5 + 1] * 3))" in line and "_big(" not in line
    far = next(ln for ln in src.splitlines() if "st.v[fr[2] * 5 + 4] =" in ln)
    assert "_big(" in far
    plus = next(ln for ln in src.splitlines() if "st.v[fr[2] * 5] =" in ln)
    assert "0 <= (" in plus and "type(" not in plus      # '+=': the clamp, no type test
    st = game.new_game(seed=1)         # three turns, no decision
    assert st.is_over
    assert st.stat("low", 0) == 9                  # 4, 8, then 12 kept at its max
    assert st.stat("total", 0) == 8 + 20 * 3
    assert st.stat("far", 0) == 3_200_001
    limited = rulelang.loads(ARITH, limits=Limits(max_number=2_500_000))
    with pytest.raises(RulesetRuntimeError, match="max_number"):
        limited.new_game(seed=1)


LOOKED_UP = '''game "Looked up"
players 1
board cells grid 4 wide 3 high { state { mark 0 } }
per player { same_column 0  marked 0  hits 0  rounds 0 }
turn {
    phase p {
        choose one cells as chosen where mark is 0 "Pick"
        same_column = count cells where x is chosen.x
        for each cells as c where x is chosen.x and y >= chosen.y { c.mark += 1 }
        marked = count cells where mark > 0
        let col = 1
        for each cells as d where x is col {
            col = col + 1
            hits += 1
        }
        rounds += 1
        if rounds >= 4: end game "done"
    }
}
'''


def test_a_printed_field_is_looked_up_and_gives_the_plain_answer():
    """'x is chosen.x' (x printed on every space, chosen.x the same for every
    space looked at) is answered from a table of the spaces by x, in a
    count and in a 'for each' whose body does not change chosen; a 'for each'
    whose body changes what the 'where' reads ('col') asks every space in
    turn, as written: 4 spaces of the bottom row, each moving 'col' on."""
    game = rulelang.loads(LOOKED_UP)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    assert len(re.findall(r"C\[\d+\]\.get\(", src)) == 2, src   # (the tables looked up)
    assert "range(12)" in src               # (the loop over 'col' scans)
    for seed in range(5):
        st = game.new_game(seed=seed)
        rng = random.Random(seed)
        hits = 0
        while not st.is_over:
            move = rng.choice(st.legal_moves())
            pick = move.label.split(": ")[-1]
            before = {c["name"]: c for c in _cells(st)}
            st.apply(move)
            cells = {c["name"]: c for c in _cells(st)}
            px, py = before[pick]["x"], before[pick]["y"]
            assert st.stat("same_column", 0) == sum(1 for c in cells.values() if c["x"] == px)
            for name, c in cells.items():
                grew = c["x"] == px and c["y"] >= py
                assert c["mark"] == before[name]["mark"] + grew
            assert st.stat("marked", 0) == sum(1 for c in cells.values() if c["mark"] > 0)
            hits += 4
            assert st.stat("hits", 0) == hits


WAITING = '''game "Looked up, waiting"
players 1
board cells grid 3 wide 3 high { state { mark 0 } }
per player { skipped 0  rounds 0 }
turn {
    phase p {
        choose one cells as chosen where mark is 0 "Pick"
        for each cells as c where x is chosen.x {
            choose one "Mark it?" {
                "yes": c.mark += 1
                "no": skipped += 1
            }
        }
        rounds += 1
        if rounds >= 3: end game "done"
    }
}
'''


def test_a_loop_that_waits_looks_up_its_pieces_and_resumes_from_a_save():
    """A 'for each' whose body waits for a decision (an op of its own)
    goes over the spaces of the chosen one's column from a table too: it
    asks of each space of that column once, in order, and a save taken
    while it waits restores to the same next question."""
    game = rulelang.loads(WAITING)
    src = codegen.source_of(game.prog, game.prog.code_names.index("the turn"))
    assert "_among = " in src
    for seed in range(4):
        st = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            assert st.decision == "Pick"
            move = rng.choice(st.legal_moves())
            column = next(c["x"] for c in _cells(st) if c["name"] == move.label)
            start = {c["name"]: c["mark"] for c in _cells(st)}
            st.apply(move)
            marked = []
            while st.decision == "Mark it?":
                moves = st.legal_moves()
                back = game.restore(st.to_json())
                assert [m.label for m in back.legal_moves()] == [m.label for m in moves]
                before = {c["name"]: c["mark"] for c in _cells(st)}
                st.apply(next(m for m in moves if m.label.endswith("yes")))
                marked += [c["name"] for c in _cells(st) if c["mark"] != before[c["name"]]]
            expect = sorted((c for c in _cells(st) if c["x"] == column), key=lambda c: c["y"])
            assert marked == [c["name"] for c in expect]
            assert all(c["mark"] == start[c["name"]] + (c["x"] == column) for c in _cells(st))
        assert st.stat("rounds", 0) == 3


NEAR = '''game "Neighbours"
players 2
board cells grid 4 wide 4 high { state { mark 0 } }
per player { around 0  diagonal 0  spread 0 }
turn {
    phase p {
        choose one cells as h where mark is 0
            and any of cells where mark is 0 and (distance from h along north, east) is 1 "From"
        if h is none: end game "stuck"
        h.mark += 1
        around = count cells where (distance from h) is 1 and mark > 0
        diagonal = count cells where 1 is (distance from h along northeast, southwest)
        spread = 0
        for each cells as c where (distance from h) is 2 { spread += 1 + c.mark }
    }
}
'''


def test_spaces_at_a_distance_are_looked_up_and_give_the_plain_answer():
    """'(distance from h …) is N' about the space looked at is answered from
    a table of each space's spaces at that distance (no scan of the board),
    in a choice whose own 'where' names the chosen space (read as a Python
    local, not the frame), counts and a 'for each'; each agrees with the
    distances worked out here from the grid."""
    game = rulelang.loads(NEAR)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    assert "range(16)" in src and src.count("range(16)") == 1, src     # (only the choice's own scan)
    assert not re.search(r"\[\S+ for fr\[\d+\] in", src), src     # (a choice's scan)

    def cheb(a, b):             # (grid: 8 directions, one step each)
        return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]))
    for seed in range(5):
        st = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            cells = {c["name"]: c for c in _cells(st)}
            offered = sorted(m.label.split(": ")[-1] for m in st.legal_moves())
            expect = sorted(n for n, c in cells.items() if c["mark"] == 0 and any(
                o["mark"] == 0 and (o["x"], o["y"]) in ((c["x"], c["y"] + 1), (c["x"] + 1, c["y"]))
                for o in cells.values()))
            assert offered == expect
            move = rng.choice(st.legal_moves())
            seat = st.current_player
            h = cells[move.label.split(": ")[-1]]
            st.apply(move)
            cells = {c["name"]: c for c in _cells(st)}
            assert st.stat("around", seat) == sum(1 for c in cells.values()
                                                  if cheb(c, h) == 1 and c["mark"] > 0)
            assert st.stat("diagonal", seat) == sum(
                1 for c in cells.values() if (c["x"] - h["x"], c["y"] - h["y"]) in ((1, 1), (-1, -1)))
            assert st.stat("spread", seat) == sum(1 + c["mark"] for c in cells.values() if cheb(c, h) == 2)


def _grid_lines(w, h):
    """A w×h grid's four lines (east/west, north/south and the diagonals),
    as the compiler holds a board's: (forward steps, back steps), each
    space's next space or none."""
    def steps(dx, dy):
        return [(x + dx) + (y + dy) * w if 0 <= x + dx < w and 0 <= y + dy < h else None
                for y in range(h) for x in range(w)]
    return tuple((steps(dx, dy), steps(-dx, -dy)) for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)))


def _ring_lines(n):
    """A ring of n spaces, one line around it."""
    return (([(i + 1) % n for i in range(n)], [(i - 1) % n for i in range(n)]),)


@pytest.mark.parametrize("name, lines", [("3x3", _grid_lines(3, 3)), ("5x4", _grid_lines(5, 4)),
                                         ("7x6", _grid_lines(7, 6)), ("ring 6", _ring_lines(6)),
                                         ("ring 3", _ring_lines(3))])
def test_runs_read_at_once_answer_what_the_walk_answers(name, lines):
    """'N in a row through s where FIELD is V' read from a table of the runs
    through each space (``row_windows``, each run's values taken at once)
    answers what the walk along the lines answers, on every space, for
    random boards of three values; where the table is not the better way
    (a ring closer than N, too many runs through a space) there is none."""
    from rulelang.engine.runtime import _in_a_row_is, _rows_through, row_windows

    rng = random.Random(name)
    spaces = len(lines[0][0])
    tables = []
    for n in range(1, 9):
        windows = row_windows(lines, n)
        if windows is None:
            continue
        tables.append(n)
        found = 0
        for _ in range(40):
            values = [rng.choice((None, 0, 1)) for _ in range(spaces)]
            for start in range(spaces):
                for value in (None, 0, 1):
                    walked = _in_a_row_is(start, n, lines, values, value)
                    assert _rows_through(start, n, windows, values, value) == walked, \
                        (n, start, value, values)
                    found += walked
        assert found or not any(windows), n        # runs were there to be found
    # None below 2, past 8 runs through a space (a 5x4 board's middle for
    # 3 in a row), or for a ring closer than N (its runs would meet).
    assert tables == {"3x3": [2, 3, 4, 5, 6, 7, 8], "5x4": [2, 4, 5, 6, 7, 8],
                      "7x6": [2, 6, 7, 8], "ring 6": [2, 3], "ring 3": [2]}[name]


COLUMNS = '''game "Columns"
players 2..5
per player { a 0  b 3  many 0  some no  nobody no  both 0  others 0 }
turn {
    phase p {
        choose a number from 0 to 6 as n "Set a"
        a = n
        many = count players where a > 2
        some = any players where a >= 5 and a is not 6
        nobody = no players where a is 1
        both = count players where a > b
        others = count other players where a > 2
        if round > 6 { end game "done" }
    }
}
'''


def after_each_move(game, games):
    """(the state, the player who moved) after each random move of
    ``games`` games, game i with seed i and 2 + i % 4 players."""
    for seed in range(games):
        st = game.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            who = st.current_player
            st.apply(rng.choice(st.legal_moves()))
            yield st, who


def test_a_condition_on_one_stat_reads_its_column():
    """'count / any / none players where …' whose condition reads one stat
    of the player looked at runs over that stat's column (one slice of the
    state); one that reads two stats, or 'other players', asks each seat:
    both answer what the players' values, counted here, say."""
    game = rulelang.loads(COLUMNS)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    assert len(re.findall(r"for _t\d+ in st\.v\[\d+::\d+\]", src)) == 2       # many, some
    assert re.search(r"\(1 not in st\.v\[\d+::\d+\]\)", src)                   # nobody
    assert len(re.findall(r"for _t\d+ in range\(st\.n\)", src)) == 2            # both, others
    for st, who in after_each_move(game, 8):
        a = [st.stat("a", p) for p in range(st.players)]
        b = [st.stat("b", p) for p in range(st.players)]
        assert st.stat("many", who) == sum(x > 2 for x in a)
        assert st.stat("some", who) == any(x >= 5 and x != 6 for x in a)
        assert st.stat("nobody", who) == (1 not in a)
        assert st.stat("both", who) == sum(x > y for x, y in zip(a, b))
        assert st.stat("others", who) == sum(x > 2 for p, x in enumerate(a) if p != who)


EXTREMES = '''game "Extremes"
players 2..5
per player { a 0  hi no  lo no  nb no  fixed no  many 0  few 0 }
global { bar 3 }
turn {
    phase p {
        choose a number from 0 to 7 as n "Set a"
        a = if n is 7 then none else n
        choose a number from 0 to 7 as m "Set the bar"
        bar = if m is 7 then none else m
        hi = any players where a >= bar
        lo = any players where 2 > a
        nb = no players where a > 4
        fixed = any players where a <= 1
        many = count players where a >= bar
        few = count players where 3 >= a
        if round > 8 { end game "done" }
    }
}
'''


def test_any_player_past_a_value_asks_the_columns_least_or_greatest():
    """'any / no players where STAT < VALUE' (and <=, >, >=, either way
    round) asks the least or the greatest of the stat's column, where the
    column and VALUE hold no none; with a none among them it asks each
    player, none being past nothing: both answer what the values say."""
    game = rulelang.loads(EXTREMES)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    assert len(re.findall(r"max\(_t\d+\) >= _t\d+ if \(_t\d+ := st\.g\[0\]\) is not None", src)) == 1
    assert len(re.findall(r"\(max\(_t\d+\) > 4 if None not in", src)) == 1
    assert len(re.findall(r"\(min\(_t\d+\) (<= 1|< 2) if None not in", src)) == 2
    assert "sum(map(" not in src
    past = lambda values, test: any(x is not None and test(x) for x in values)    # noqa: E731
    seen = set()
    for st, who in after_each_move(game, 12):
        if st.decision != "Set a" and not st.is_over:
            continue
        a = [st.stat("a", p) for p in range(st.players)]
        bar = st.stat("bar")
        seen.add((None in a, bar is None))
        assert st.stat("hi", who) == (bar is not None and past(a, lambda x, b=bar: x >= b))
        assert st.stat("lo", who) == past(a, lambda x: x < 2)
        assert st.stat("nb", who) == (not past(a, lambda x: x > 4))
        assert st.stat("fixed", who) == past(a, lambda x: x <= 1)
        assert st.stat("many", who) == (0 if bar is None else
                                        sum(x is not None and x >= bar for x in a))
        assert st.stat("few", who) == sum(x is not None and x <= 3 for x in a)
    assert seen == {(False, False), (False, True), (True, False), (True, True)}


COMPARED = '''game "Compared"
players 1
per player { x 0  hits 0  kept 0 }
turn {
    phase p {
        x += 900000
        if x + x * 2 > 2000000 and 1 - x < x * x { hits += 1 }
        if round >= 2 { end game "done" }
        kept = x + x
    }
}
'''


def test_arithmetic_that_is_only_compared_is_not_checked_against_the_limit():
    """'x + x * 2 > …' is worked out and compared exactly, with no check
    against Limits.max_number: its value is never kept, and each number it
    reads is within the limit.  A sum kept in a stat ('x + x') is checked:
    past the limit it stops the game with the limit's message."""
    from rulelang import Limits, RulesetRuntimeError
    limits = Limits(max_number=2_500_000)
    game = rulelang.loads(COMPARED, limits=limits)
    src = codegen.source_of(game.prog, game.prog.code_names.index("the turn"))
    test = next(ln for ln in src.splitlines() if "2000000" in ln)
    assert "_big(" not in test and "((st.v[fr[2] * 3] + (st.v[fr[2] * 3] * 2)) > 2000000)" in test
    assert "_big(" in next(ln for ln in src.splitlines() if "st.v[fr[2] * 3 + 2] =" in ln)
    st = game.new_game(seed=1)      # x + x * 2: 2.7 and 5.4 million, compared
    assert st.is_over and st.stat("hits", 0) == 2 and st.stat("x", 0) == 1_800_000
    with pytest.raises(RulesetRuntimeError, match="max_number"):
        rulelang.loads(COMPARED.replace("round >= 2", "round >= 9"), limits=limits).new_game(seed=1)
