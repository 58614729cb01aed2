"""Golden playthroughs: for each ruleset in rulesets/, fixed-seed games
(every move, every log entry, the result) written in tests/golden/ and
compared on every run, so that any change in how a game plays shows up
as a readable diff.

When a change in behaviour is intended, regenerate them with one command:

    RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

and commit the new files with the change that explains them.
"""

from __future__ import annotations

import difflib
import os

import pytest

from rulelang.testing import golden_log
from helpers import ROOT, RULESETS, shipped

GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("RULELANG_UPDATE_GOLDEN") == "1"
SEED = 2024


def playthroughs(game):
    """The games kept for a ruleset: the most players in sample mode and
    the fewest in explicit mode."""
    return (golden_log(game, game.max_players, SEED, "sample")
            + "\n" + golden_log(game, game.min_players, SEED + 1, "explicit"))


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_golden_playthrough(path):
    golden = GOLDEN / (path.stem + ".log")
    got = playthroughs(shipped(path.name))
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), (f"no golden playthrough for {path.name}: create it with "
                             f"RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py")
    want = golden.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                 str(golden), "now", n=2))[:80])
        pytest.fail(f"{path.name} plays differently from {golden.name}; if that is intended, "
                    f"regenerate with RULELANG_UPDATE_GOLDEN=1 python -m pytest "
                    f"tests/test_golden.py\n{diff}")


def test_no_golden_file_without_a_ruleset():
    """A golden file whose ruleset is gone is an error too."""
    stems = {p.stem for p in RULESETS}
    orphans = [g.name for g in GOLDEN.glob("*.log") if g.stem not in stems]
    assert not orphans, f"golden files without a ruleset: {orphans}"


def test_golden_log_is_deterministic_and_complete(northpole):
    game = northpole
    a = golden_log(game, 2, 5)
    assert a == golden_log(game, 2, 5)
    assert a != golden_log(game, 2, 6)
    lines = a.splitlines()
    assert lines[0].startswith("# Racing to the North Pole: 2 players, seed 5")
    assert lines[-1].startswith("= ") and "ending 'every expedition is home or lost'" in lines[-1]
    assert any(line.startswith("> P0: ") for line in lines)
