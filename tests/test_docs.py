"""The examples in the docs stay true: every ```rules block of
docs/language.md parses as what it is (declarations, statements, or
expressions one per line, every line), and every complete example (one
with a game header) loads."""

from __future__ import annotations

import pathlib
import re

import pytest

import rulelang
from rulelang import RulesetError
from rulelang.syntax import parse

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "language.md"
BLOCKS = re.findall(r"```rules\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
HEADER = 'game "Example"\nplayers 1..4\n'


def parses(text):
    try:
        parse(text)
        return True
    except RulesetError:
        return False


def test_the_reference_has_examples():
    assert len(BLOCKS) >= 25


@pytest.mark.parametrize("block", BLOCKS, ids=[b.strip().splitlines()[0][:40] for b in BLOCKS])
def test_example_parses(block):
    """The example is valid syntax in the place the reference shows it."""
    whole = [block, HEADER + block, HEADER + "rule example {\n" + block + "\n}\n"]
    assert any(parses(c) for c in whole) or every_line_an_expression(block), block


def every_line_an_expression(block):
    """A block of expressions, one per line (each line must be one)."""
    lines = [line for line in block.strip().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    return bool(lines) and all(
        parses(HEADER + "rule example {\n let value = " + line + "\n}\n") for line in lines)


@pytest.mark.parametrize("broken", [
    "per player {\n food 10 min\n}",              # a bound without its number
    "count of Trek in hand\nfood +* 2",           # one good expression, one broken
    "rule r {\n if food > 1 {\n food -= 1\n}",    # an unclosed brace
])
def test_a_broken_example_is_caught(broken):
    """The check above fails on a broken block (it once passed any block
    in which a single line parsed)."""
    whole = [broken, HEADER + broken, HEADER + "rule example {\n" + broken + "\n}\n"]
    assert not any(parses(c) for c in whole) and not every_line_an_expression(broken)


@pytest.mark.parametrize("block", [b for b in BLOCKS if re.search(r'^game "', b, re.M)])
def test_complete_example_loads(block):
    """A complete example game passes the checker and plays to the end."""
    game = rulelang.loads(block)
    state = game.new_game(players=game.min_players, seed=1)
    for _ in range(10_000):
        if state.is_over:
            break
        state.apply(state.legal_moves()[0])
    assert state.is_over


def test_the_version_is_written_in_one_place():
    """pyproject.toml reads the version from rulelang/version.py, which the
    package offers as its own; the changelog has an entry for it."""
    root = DOC.parent.parent
    project = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert not re.search(r"^version\s*=\s*\"", project, re.M)
    assert 'version = {attr = "rulelang.version.__version__"}' in project
    assert rulelang.__version__ == rulelang.version.__version__
    assert f"## {rulelang.__version__} " in (root / "CHANGELOG.md").read_text(encoding="utf-8")
