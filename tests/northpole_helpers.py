"""Shared set-up for the North Pole scenario tests: explicit chance mode,
so every die and every card is forced by the test."""

from __future__ import annotations

from rulelang import CHANCE

from helpers import play, shipped  # noqa: F401  (play: for the test files)

GAME = shipped("northpole.rules")

# Presets with Time 0 and Hoax 0, so turns go plainly clockwise and no
# reroll decisions appear: Amundsen (Ship 2) and Shackleton (Ship 2).
PLAIN = ("Roald Amundsen", "Ernest Shackleton")


def start(presets=PLAIN, first=0):
    """A game in explicit chance mode with these preset expeditions, the
    first-player roll-off forced so that seat ``first`` wins it.  Returns
    the state waiting for the first player's Event roll."""
    state = GAME.new_game(players=len(presets), chance="explicit",
                          options={"expedition": list(presets)})
    for seat in range(len(presets)):
        play(state, "roll 10" if seat == first else "roll 1")
    return state


def stats(state, seat):
    """A player's stats as a dict."""
    return state.view(None)["players"][seat]["stats"]


def draw(state, *cards):
    """Force the next draws (explicit mode): one 'draw NAME' per card."""
    for card in cards:
        assert state.current_player == CHANCE, state.legal_moves()
        state.apply(f"draw {card}")
    return state
