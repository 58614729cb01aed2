"""Writes that need no check (issue 20): a value the compiler knows a
stat keeps as it is (a number within the stat's bounds, a card's printed
number, a player, a word, a yes/no) is written plainly by the generated
code; anything else goes through the keeper, which clamps to the stat's
bounds and refuses numbers past the limit.  Both must give what the ops,
one at a time, give."""

from __future__ import annotations

import re

import rulelang
from rulelang.engine import codegen
from helpers import play_both_ways

WRITES = '''game "Writes"
players 2..3
deck numbers { "{n} of rows" for n from 1 to 9: worth n }
per player {
    seen 0                  # any number: a card's worth is kept as it is
    capped 0 max 5          # a worth above 5 is clamped
    floor 3 min 3           # a worth below 3 is raised
    last none               # a player
    word one of low, high
    flag no
    cup = no dice
}
pile hand per player
setup { for each player { draw 4 from numbers to hand } }
turn {
    phase play {
        choose one card from hand as c "Play"
        seen = c.worth
        capped = c.worth
        floor = c.worth
        last = player after this player
        word = if c.worth > 4 then high else low
        flag = c.worth > 4
        cup = roll seen dice d6
        move c from hand to numbers
        draw 1 from numbers to hand
    }
}
end "enough" when round > 6
score { seen }
'''


def _turn_source(game):
    prog = game.prog
    return codegen.source_of(prog, prog.code_names.index("the turn"))


def test_writes_of_values_a_stat_keeps_as_they_are_are_plain():
    """The card's worth into an unbounded stat, the player, the word and the
    yes/no are written with no check; the worth into a bounded stat is
    still checked (it may be clamped), and so is a pool (its size)."""
    src = _turn_source(rulelang.loads(WRITES))
    lines = [line.strip() for line in src.splitlines() if re.match(r"\s*st\.v\[", line)]
    keeper = re.compile(r" else C\[\d+\]\(_t\d+\)$")
    plain = [line for line in lines if not keeper.search(line)]
    checked = [line for line in lines if keeper.search(line)]
    assert len(plain) == 4, lines        # seen, last, word, flag
    assert len(checked) == 3, lines      # capped, floor, cup
    assert any("is tuple and len(" in line for line in checked)     # the pool: its size only


def test_plain_and_checked_writes_play_as_the_ops():
    """Move for move against the ops (whose every write goes through the
    keeper), in both chance modes: the clamped values and the plain ones
    are the same, and the bounds held."""
    clamped = raised = 0

    def check(a, b, moves):
        nonlocal clamped, raised
        assert a.to_json() == b.to_json(), f"seed {a.seed}: differs after {moves} moves"
        for seat in range(a.players):
            seen, capped, floor = (a.stat(s, seat) for s in ("seen", "capped", "floor"))
            assert capped == min(seen, 5) and floor == max(seen, 3)
            if seen:
                assert a.stat("word", seat) == ("high" if seen > 4 else "low")
                assert a.stat("flag", seat) is (seen > 4)
                assert a.stat("last", seat) == (seat + 1) % a.players
                if a.current_player != rulelang.CHANCE:     # (not before the roll)
                    assert len(a.stat("cup", seat)) == seen
            clamped += seen > 5
            raised += 0 < seen < 3
    play_both_ways(rulelang.loads(WRITES), 12, lambda i: "sample" if i % 2 else "explicit",
                   players=lambda i: 2 + i % 2, check=check)
    assert clamped and raised       # both bounds were met, not only values inside them
