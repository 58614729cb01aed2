"""Smoke tests for the North Pole helpers themselves."""

from rulelang import CHANCE

from northpole_helpers import start, stats


def test_start_reaches_first_event_roll():
    """After set-up the first player's Event roll is a chance node with ten
    equally likely outcomes."""
    state = start(first=1)
    assert state.current_player == CHANCE
    assert state.turn_player == 1
    moves = state.legal_moves()
    assert [m.label for m in moves] == [f"roll {v}" for v in range(1, 11)]
    assert sum(m.probability for m in moves) == 1
    assert stats(state, 0)["food"] == 12
