"""The examples in the docs stay true: every ```rules block of
docs/language.md parses (as declarations, as statements or as an
expression), and every complete example (one with a game header) loads."""

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
    contexts = [block, HEADER + block, HEADER + "rule example {\n" + block + "\n}\n"]
    contexts += [HEADER + "rule example {\n let value = " + line + "\n}\n"
                 for line in block.strip().splitlines() if line.strip() and not line.startswith("let")]
    assert any(parses(c) for c in contexts), block


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
