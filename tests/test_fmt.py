"""``rulelang fmt`` (issue 19): one canonical layout, the IR unchanged,
formatting twice gives what formatting once gave, comments kept where
they were; and the command line (in place, --check, '-')."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelang import RulesetSyntaxError
from rulelang.syntax import parse
from rulelang.syntax.fmt import format_source, run
from helpers import ROOT

EVERY_SHIPPED = sorted([*(ROOT / "rulesets").glob("*.rules"), *(ROOT / "examples").glob("*.rules")])


@pytest.mark.parametrize("path", EVERY_SHIPPED, ids=lambda p: p.name)
def test_formatting_keeps_the_ir_and_is_idempotent(path):
    text = path.read_text(encoding="utf-8")
    once = format_source(text, str(path))
    assert parse(once, str(path)) == parse(text, str(path))
    assert format_source(once, str(path)) == once
    # The comments are all there, in their order.
    assert [line.split("#", 1)[1] for line in once.splitlines() if "#" in line and '"' not in line] == \
        [line.split("#", 1)[1] for line in text.splitlines() if "#" in line and '"' not in line]


@pytest.mark.parametrize("path", EVERY_SHIPPED, ids=lambda p: p.name)
def test_the_shipped_rule_files_are_kept_formatted(path):
    """Our own files are in the layout ``fmt`` gives (their tables lined up
    by hand and kept so): ``rulelang fmt --check`` passes on each."""
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text


MESSY = '''\


# Coin race
game   "Coin"   # the title
players 2 .. 4
per player {
pts 0 min 0      # points
  lost 0
}



rule gain(n) {   # a rule
        pts+=n
    if pts>=10 and
       lost==0 { lost=lost + 1 }
      else:pts=- 1
}
turn { phase p {
    gain( 2 )
      # a comment on its own line
    let r = roll d6
    if count players where pts > 3 > 1
        {
      pts -= 1
    }
} }
score {
pts
  -lost
}
# the end
'''

# ('lost == 0' goes on under 'pts', where it was written.)
TIDY = '''\
# Coin race
game "Coin"  # the title
players 2..4
per player {
    pts 0 min 0  # points
    lost 0
}

rule gain (n) {  # a rule
    pts += n
    if pts >= 10 and
       lost == 0 { lost = lost + 1 }
    else: pts = -1
}
turn { phase p {
    gain(2)
    # a comment on its own line
    let r = roll d6
    if count players where pts > 3 > 1
    {
        pts -= 1
    }
} }
score {
    pts
    -lost
}
# the end
'''


def test_a_messy_file_gets_the_canonical_layout():
    assert format_source(MESSY) == TIDY
    assert parse(TIDY) == parse(MESSY)
    assert format_source(TIDY) == TIDY


@pytest.mark.parametrize("text, tidy", [
    # a trailing comment stays on its line; a run of them is lined up
    ('game "G"  # a\nplayers 2 # bb\nscore { 1 }\n',
     'game "G"   # a\nplayers 2  # bb\nscore { 1 }\n'),
    # a comment before the first line, and after the last
    ('# top\n\n\ngame "G"\nplayers 2\nscore { 1 }   # last\n# after\n\n',
     '# top\n\ngame "G"\nplayers 2\nscore { 1 }  # last\n# after\n'),
    # a comment at the end of a block is at the block's level, before its '}'
    ('game "G"\nplayers 2\nrule r {\nstop\n        # why\n}\nscore { 1 }\n',
     'game "G"\nplayers 2\nrule r {\n    stop\n    # why\n}\nscore { 1 }\n'),
    # a comment between the lines of one statement
    ('game "G"\nplayers 2\nper player { a 0 }\nend "x" when a > 1 # one\n  # two\n  and a < 5\nscore { 1 }\n',
     'game "G"\nplayers 2\nper player { a 0 }\nend "x" when a > 1  # one\n    # two\n    and a < 5\n'
     'score { 1 }\n'),
    # a comment inside 'per player {' keeps the token as written
    ('game "G"\nplayers 2\nper # mine\n player { a 0 }\nscore { 1 }\n',
     'game "G"\nplayers 2\nper # mine\n player { a 0 }\nscore { 1 }\n'),
    # quoted text with '#' is not a comment
    ('game "G # 1"\nplayers 2\nscore { 1 }\n', 'game "G # 1"\nplayers 2\nscore { 1 }\n'),
])
def test_comments_stay_where_they_were(text, tidy):
    assert format_source(text) == tidy
    assert parse(tidy) == parse(text)


def test_a_file_that_does_not_parse_raises_the_error_load_raises():
    with pytest.raises(RulesetSyntaxError) as info:
        format_source('game "G"\nplayers 2\nrule r { if a = 1 { stop } }\n', "bad.rules")
    assert (info.value.filename, info.value.line) == ("bad.rules", 3) and "'=='" in info.value.message


def test_fmt_rewrites_in_place_and_check_lists_what_would_change(tmp_path):
    messy, tidy = tmp_path / "messy.rules", tmp_path / "tidy.rules"
    messy.write_text(MESSY, encoding="utf-8")
    tidy.write_text(TIDY, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run([str(messy), str(tidy)], True, io.StringIO(), out, err) == 1
    assert out.getvalue() == f"{messy}\n" and messy.read_text(encoding="utf-8") == MESSY
    assert run([str(messy), str(tidy)], False, io.StringIO(), io.StringIO(), err) == 0
    assert messy.read_text(encoding="utf-8") == TIDY
    assert run([str(messy), str(tidy)], True, io.StringIO(), io.StringIO(), err) == 0


def test_fmt_of_a_bad_file_says_why_and_leaves_it(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "G"\nplayers 2\nrule r { pts += }\n', encoding="utf-8")
    err = io.StringIO()
    assert run([str(bad), str(tmp_path / "none.rules")], False, io.StringIO(), io.StringIO(), err) == 1
    assert f"{bad}:3:17: unexpected '}}'; expected a value" in err.getvalue()
    assert "none.rules: cannot read" in err.getvalue()
    assert bad.read_text(encoding="utf-8") == 'game "G"\nplayers 2\nrule r { pts += }\n'


def test_fmt_command_reads_stdin_with_a_dash():
    done = subprocess.run([sys.executable, "-m", "rulelang", "fmt", "-"], input=MESSY, capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, TIDY, "")
    bad = subprocess.run([sys.executable, "-m", "rulelang", "fmt", "--check", "-"], input="game\n",
                         capture_output=True, text=True, timeout=120)
    assert (bad.returncode, bad.stdout) == (1, "") and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("<stdin>:1:5: the file ends too early")


@pytest.mark.parametrize("text, tidy", [
    # items of a block on one line: two spaces between them, one inside the braces
    ('game "G"\nplayers 2\ndeck cards {Jack: rank 1   Queen: rank 2}\nscore { 1 }\n',
     'game "G"\nplayers 2\ndeck cards { Jack: rank 1  Queen: rank 2 }\nscore { 1 }\n'),
    # an 'else' of a value goes on with its line; one of an 'if' statement is under the 'if'
    ('game "G"\nplayers 2\nper player { a 0 }\nrule r {\na = if a > 1 then 2\nelse 3\nif a > 2 { a = 1 }\n'
     '    else { a = 2 }\n}\nscore { a }\n',
     'game "G"\nplayers 2\nper player { a 0 }\nrule r {\n    a = if a > 1 then 2\n        else 3\n'
     '    if a > 2 { a = 1 }\n    else { a = 2 }\n}\nscore { a }\n'),
    # a block opened on a line that goes on: its lines one level in from the statement's first
    ('game "G"\nplayers 2\nper player { a 0 }\nturn order clockwise from 0\nwhen a > 0 {\nphase p { a -= 1 }\n}\n'
     'score { a }\n',
     'game "G"\nplayers 2\nper player { a 0 }\nturn order clockwise from 0\n    when a > 0 {\n'
     '    phase p { a -= 1 }\n}\nscore { a }\n'),
    # the first stat of 'global {' (two tokens open it) is an item like the next, its
    # bounds one space apart
    ('game "G"\nplayers 2\nglobal {\n  a 1 min 1 max 5\n  b yes\n}\nscore { a }\n',
     'game "G"\nplayers 2\nglobal {\n    a 1 min 1 max 5\n    b yes\n}\nscore { a }\n'),
    # a block opened after a condition that goes on inside '( … )': its lines one level
    # in from the statement's first line, not from the line that opened it
    ('game "G"\nplayers 2\nper player { a 0 }\nrule r {\nwhile a > 0 and (a < 3\n'
     '                  or a > 5) {\na -= 1\n}\n}\nscore { a }\n',
     'game "G"\nplayers 2\nper player { a 0 }\nrule r {\n    while a > 0 and (a < 3\n'
     '        or a > 5) {\n        a -= 1\n    }\n}\nscore { a }\n'),
])
def test_layout_of_items_else_and_blocks(text, tidy):
    assert format_source(text) == tidy
    assert format_source(tidy) == tidy and parse(tidy) == parse(text)


COLUMNS = '''\
game "Columns"
players 2
per player {
    men    5   min 0
    food  10   min 0
    skill  5   min 0
}
deck travel {
    Trek          x10: move 1
    Ice           x5:  move 1
    "Cracked Ice" x5:  move -1
}
score { men }
'''

# The words lined up stay so, one space after the widest: the numbers to
# the right ('5' over '10'); the deck as it was: 'x5:' after the widest
# name (which had one space), 'move' after 'x5:' (two spaces there, one
# after 'x10:').
COLUMNS_TIDY = COLUMNS.replace("""\
    men    5   min 0
    food  10   min 0
    skill  5   min 0
""", """\
    men   5 min 0
    food 10 min 0
    skill 5 min 0
""")


def test_words_the_writer_lined_up_stay_lined_up():
    assert COLUMNS_TIDY != COLUMNS
    assert format_source(COLUMNS) == COLUMNS_TIDY
    assert format_source(COLUMNS_TIDY) == COLUMNS_TIDY


@pytest.mark.parametrize("text, tidy", [
    # two spaces that line up with nothing beside them are one
    ('game "G"\nplayers 2\nper player {\n    a  1\n    bbb 2 min 0\n}\nscore { a }\n',
     'game "G"\nplayers 2\nper player {\n    a 1\n    bbb 2 min 0\n}\nscore { a }\n'),
    # a blank line ends the lines whose columns line up
    ('game "G"\nplayers 2\nper player {\n    a      1\n\n    bbbbb  2\n}\nscore { a }\n',
     'game "G"\nplayers 2\nper player {\n    a 1\n\n    bbbbb 2\n}\nscore { a }\n'),
    # items of a block lined up on lines one over the other stay lined up, two
    # spaces after the widest
    ('game "G"\nplayers 2\ndeck c {\n    A: rank 1         B: rank 2\n    Queen: rank 12    K: rank 13\n}\n'
     'score { 1 }\n',
     'game "G"\nplayers 2\ndeck c {\n    A: rank 1       B: rank 2\n    Queen: rank 12  K: rank 13\n}\n'
     'score { 1 }\n'),
    # lined up with tabs (stopping every four columns): kept, in spaces
    ('game "G"\nplayers 2\nper player {\n\tab\t1\n\tc\t2 min 0\n\tdef\t3\n\tghijk\t4\n}\nscore { ab }\n',
     'game "G"\nplayers 2\nper player {\n    ab  1\n    c   2 min 0\n    def 3\n    ghijk 4\n}\nscore { ab }\n'),
    # lines written lined up over messy indentation line up at their level
    ('game "G"\nplayers 2\nper player {\n  a    1\n      bbb  2\n}\nscore { a }\n',
     'game "G"\nplayers 2\nper player {\n    a   1\n    bbb 2\n}\nscore { a }\n'),
])
def test_columns_need_lines_beside_them(text, tidy):
    assert format_source(text) == tidy
    assert format_source(tidy) == tidy and parse(tidy) == parse(text)


_WORD = st.sampled_from(["a", "bb", "ccc", "dddd", "e5"])
_GAP = st.sampled_from([" ", "  ", "   ", "    ", "\t", " \t", "\t\t"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_WORD, st.integers(0, 999), _GAP, _GAP, st.booleans(), st.integers(0, 6),
                          st.sampled_from(["", "  # c", " # c", "\t# c"])), min_size=1, max_size=6))
def test_any_spacing_formats_to_a_layout_that_stays(rows):
    """Whatever the spaces and tabs between the words (and before a
    comment), formatting keeps the IR and formatting the result again
    changes nothing."""
    seen, lines = set(), []
    for word, value, gap1, gap2, bounded, indent, comment in rows:
        name = f"{word}{len(seen)}"
        seen.add(name)
        bound = f"{gap2}min 0" if bounded else ""
        lines.append(f"{' ' * indent}{name}{gap1}{value}{bound}{comment}")
    text = 'game "G"\nplayers 2\nper player {\n' + "\n".join(lines) + '\n}\nscore { 1 }\n'
    once = format_source(text)
    assert parse(once) == parse(text)
    assert format_source(once) == once


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sets(st.integers(0, 4), max_size=3), max_size=12))
def test_the_stretches_of_a_column_are_counted_in_one_pass_as_around_each_line(columns):
    """``_stretches`` (one pass, so that a table of thousands of rows is
    laid out in time linear in its rows) gives, for each line and column,
    the lines next to each other that have the column, counted around it."""
    from rulelang.syntax.fmt import _stretches
    found = [{c: 0 for c in cs} for cs in columns]

    def around(k, c):
        first, last = k, k
        while first > 0 and c in found[first - 1]:
            first -= 1
        while last + 1 < len(found) and c in found[last + 1]:
            last += 1
        return last - first + 1

    assert _stretches(found) == [{c: around(k, c) for c in cs} for k, cs in enumerate(found)]
