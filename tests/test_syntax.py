"""Syntax errors name the file, line and column and say what was expected."""

from __future__ import annotations

import pytest

import rulelang
from rulelang import RulesetSyntaxError
from rulelang.syntax.parse import MAX_NESTING

HEAD = 'game "X"\nplayers 2..4\nper player { men 5 }\n'


@pytest.mark.parametrize("text, line, column, words", [
    (HEAD + "rule r { men += }\n", 4, 17, "expected a value"),
    (HEAD + "rule r { if men > 2 men -= 1 }\n", 4, 21, "expected ':' or '{'"),
    ('game X\n', 1, 6, 'expected a "quoted text"'),
    (HEAD + "rule r { men += 1 @ }\n", 4, 19, "unexpected character '@'"),
    (HEAD + "rule r { men += 1\n", 4, 8, "this '{' is never closed"),   # (at the '{' that opened it)
    ("players 2..4\n", 1, 1, 'start it with game "Title"'),
    (HEAD + 'game "Y"\n', 4, 1, "'game' is declared twice"),
])
def test_syntax_error_location_and_message(text, line, column, words):
    """A syntax error points at the offending token and says what was expected."""
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.loads(text, "bad.rules")
    err = info.value
    assert (err.filename, err.line, err.column) == ("bad.rules", line, column), err.format()
    assert words in err.message
    assert err.format().startswith(f"bad.rules:{line}:{column}: ")
    assert err.format().splitlines()[-1].strip() == "^"


def test_deep_nesting_is_refused_not_crashed():
    """Brackets nested beyond the limit give a RulesetSyntaxError, not a
    RecursionError."""
    text = HEAD + "rule r { men = " + "(" * 100_000 + "1" + ")" * 100_000 + " }\n"
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.loads(text)
    assert f"more than {MAX_NESTING} levels" in info.value.message


def test_nesting_within_the_limit_loads():
    """Fifty nested brackets are fine."""
    text = HEAD + "rule r { men = " + "(" * 50 + "1" + ")" * 50 + " }\nturn { phase p { r } }\n"
    assert rulelang.loads(text).title == "X"


@pytest.mark.parametrize("long", ['"' + "a" * 10_001 + '"', "n" * 10_001])
def test_a_text_or_name_longer_than_max_text_is_refused_where_it_is(long):
    """As a JSON document's texts are (``Limits.max_text``): a card's name
    longer than that would make move labels and log lines no save holds."""
    text = HEAD + f"deck d {{ {long} }}\n"
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.loads(text, "t.rules")
    assert "characters long: a name, label or text is at most 10000" in info.value.message
    assert info.value.line == HEAD.count("\n") + 1 and info.value.column == 10
