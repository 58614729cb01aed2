"""``rulelang odds``: exact chances through explicit chance, checked against
the North Pole rulebook worked by hand (NP-TST-01: a test rolls a d10 and
passes at or under the stat; NP-EVT-01..11: the event table, d10;
NP-CAS-01: the casualty table, d6, rolled on a failed Crevasse, Sub-Zero
Temps or Frost Bite)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import rulelang
from rulelang.balance.odds import odds_table
from rulelang.cli import main
from helpers import ROOT

NP = str(ROOT / "rulesets" / "northpole.rules")


def test_every_event_fails_as_the_rulebook_says_for_each_stat_value():
    game = rulelang.load(NP)
    table = odds_table(game, 2, 0, phase="event", sets={"hoax_left": 0},
                       vary=["skill", "will", "gear"], values=range(1, 11), until="phase")
    for v, odds in table.items():
        fail = Fraction(10 - v, 10)                          # NP-TST-01
        for row, (seen, failed) in odds.by_row.items():
            assert seen == Fraction(1, 10), row              # NP-EVT-01: a d10
            assert failed / seen == (0 if row == "events: Blizzard" else fail), (v, row)
        assert odds.failed == fail * Fraction(9, 10)
        for k in ("Lose a man", "Lose a dog", "Fear", "Lose two dogs", "Defeatism", "Bad decisions"):
            assert odds.rows.get(f"casualties: {k}", 0) == 3 * Fraction(1, 10) * fail * Fraction(1, 6)
        assert sum(odds.stops.values()) == 1


def test_the_command_prints_the_table(capsys):
    assert main(["odds", NP, "--players", "2", "--phase", "event", "--set", "hoax_left=0",
                 "--vary", "skill,will,gear=3..4", "--show", "will", "--until", "phase"]) == 0
    out = capsys.readouterr().out
    assert "  events: Crevasse                       70.0%   60.0%" in out
    assert "will at the end:" in out


@pytest.mark.parametrize("argv, message", [
    (["--vary", "skill=5"], "error: --vary takes STAT[,STAT...]=LOW..HIGH, not 'skill=5'"),
    (["--vary", "nerve=1..3"], "error: no stat named 'nerve'; stats: "),
    (["--set", "will"], "error: --set takes STAT=NUMBER, not 'will'"),
    (["--phase", "nowhere"], "error: no phase 'nowhere' starting with a chance outcome came up"),
    (["--moves", "fly away"], "error: the move 'fly away' cannot be made here: "),
    (["--players", "9"], "error: Racing to the North Pole is for 2 to 4 players, not 9"),
])
def test_bad_arguments_are_one_line(argv, message, capsys):
    assert main(["odds", NP, *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(message) and captured.err.count("\n") == 1
