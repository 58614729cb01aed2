"""One way to say a value in the ruleset's words (rulelang.show.word): the
terminal player, the text adapter and the web table's pages all say a
view's values through it, so a pool of dice reads the same in each (and as
the game's log writes it)."""

from __future__ import annotations

from rulelang.adapters import text
from rulelang.play import render
from rulelang.serve import pages
from rulelang.show import word

from helpers import shipped


def test_values_are_said_as_a_ruleset_writes_them():
    assert [word(v) for v in (True, False, None, 3, "Ace")] == ["yes", "no", "none", "3", "Ace"]
    assert word(None, none="–") == "–"
    assert word((4, 1, 6)) == "4, 1, 6" and word(()) == "no dice"        # a pool of dice
    assert word(["Ace", None, True]) == "Ace, none, yes" and word([]) == "nothing"
    assert word({"space": "Camp", "held": False}) == "{space: Camp, held: no}"


def liars_cup():
    """A Liar's Dice game whose P0 holds a pool of dice in its stat ``cup``."""
    state = shipped("liars_dice.rules").new_game(players=2, seed=1)
    cup = state.view(0)["players"][0]["stats"]["cup"]
    assert isinstance(cup, tuple) and len(cup) == 5
    return state, cup


def test_the_terminal_the_text_adapter_and_the_page_say_a_pool_alike():
    state, cup = liars_cup()
    said = ", ".join(map(str, cup))
    lines = render.plain(render.state_lines(state.view(0), render.Layout(state.game)))
    assert f"cup {said}" in lines
    assert f"cup {said}" in text.render(state, 0)              # not Python's "(4, 5, ...)"
    assert pages.esc(cup) == said and pages.esc(None) == "–" and pages.esc("<b>") == "&lt;b&gt;"


def test_the_log_says_a_pool_as_the_views_do():
    state, cup = liars_cup()
    said = ", ".join(map(str, cup))
    assert any(said in e.text for e in state.log), [e.text for e in state.log]


def test_the_direction_marks_are_escaped_as_the_overrides_are():
    """The left-to-right, right-to-left and Arabic letter marks reorder text
    on a terminal as the overrides do: written as escapes."""
    from rulelang.show import terminal
    assert terminal("a\u200eb\u200fc\u061cd\u202ee") == "a\\u200eb\\u200fc\\u061cd\\u202ee"
