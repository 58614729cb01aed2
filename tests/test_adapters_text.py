"""The view for language-model agents (rulelang.adapters.text): prompts
that hold only what the seat may see, a reply parser that accepts only an
exact move string or an unambiguous number and says why it refuses, and
explanations; the example agent loop (examples/model_agent.py)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from rulelang.adapters import text

from helpers import ROOT, game, shipped


def kuhn(first, second):
    """A Kuhn poker hand with the cards forced (explicit chance)."""
    state = shipped("kuhn_poker.rules").new_game(players=2, seed=0, chance="explicit")
    state.apply(f"draw {first}").apply(f"draw {second}")
    return state


def test_a_prompt_gives_the_decision_the_numbered_moves_and_the_view():
    state = kuhn("Queen", "King")
    p = text.prompt(state, 0)
    assert "It is your decision" in p.text
    assert "  1. Check\n  2. Bet" in p.text
    assert "hand: Queen" in p.text and "draws Queen" in p.text
    data = json.loads(p.to_json())
    assert data["options"] == [{"number": 1, "move": "Check"}, {"number": 2, "move": "Bet"}]
    assert data["seat"] == 0 and data["your_turn"] is True
    assert data["view"]["players"][0]["piles"]["hand"] == ["Queen"]
    assert "draws Queen" in data["recent_events"]


def test_a_prompt_holds_nothing_its_seat_may_not_see():
    """Seat 0's prompt is the same whichever card seat 1 holds, and names
    none of them; seat 1's names its own."""
    a, b = kuhn("Queen", "King"), kuhn("Queen", "Jack")
    assert text.prompt(a, 0).text == text.prompt(b, 0).text
    assert text.prompt(a, 0).to_json() == text.prompt(b, 0).to_json()
    assert "King" not in text.prompt(a, 0).to_json() and "Jack" not in text.prompt(a, 0).to_json()
    assert "hand: King" in text.prompt(a, 1).text


def test_a_seat_not_to_move_is_shown_no_options():
    p = text.prompt(kuhn("Queen", "King"), 1)
    assert "P0's decision; you have no move now" in p.text
    assert p.data["options"] == [] and p.data["your_turn"] is False


def test_a_reply_is_an_exact_move_or_its_number():
    state = kuhn("Queen", "King")
    assert text.parse_move(state, "Bet", 0).label == "Bet"
    assert text.parse_move(state, " Bet\n", 0).label == "Bet"
    assert text.parse_move(state, "1", 0).label == "Check"
    assert text.parse_move(state, "2").label == "Bet"


@pytest.mark.parametrize("reply, reason, nearest", [
    ("bet", "matched exactly", ["Bet"]),
    ("3", "there are 2 options", ["Check", "Bet"]),
    ("Raise", "not a legal move now", None),
    ("", "names no move", None),
    ("e", "part of 2 moves", ["Check", "Bet"]),
])
def test_a_reply_that_names_no_move_is_refused_with_the_reason(reply, reason, nearest):
    state = kuhn("Queen", "King")
    with pytest.raises(text.MoveRefused) as refused:
        text.parse_move(state, reply, 0)
    assert reason in refused.value.reason
    assert set(refused.value.nearest) <= {"Check", "Bet"} and refused.value.nearest
    if nearest is not None:
        assert refused.value.nearest == nearest
    assert refused.value.nearest[0] in str(refused.value)


def test_a_number_that_is_also_another_moves_string_is_ambiguous():
    g = game('turn {\n phase p {\n choose one "Pick" {\n "2" { end game "two" }\n'
             ' "1" { end game "one" }\n "3" { end game "three" }\n }\n }\n}\n', players="1")
    state = g.new_game(players=1, seed=0)
    assert [m.label for m in state.legal_moves()] == ["2", "1", "3"]
    for reply in ("1", "2"):
        with pytest.raises(text.MoveRefused, match="both a move string and the number"):
            text.parse_move(state, reply)
    assert text.parse_move(state, "3").label == "3"     # the string and the number agree


def test_a_reply_from_a_seat_not_to_move_is_refused_without_its_options():
    state = kuhn("Queen", "King")
    with pytest.raises(text.MoveRefused, match="P1 has no move now") as refused:
        text.parse_move(state, "Bet", 1)
    assert refused.value.nearest == []


def test_explain_says_why_from_what_the_seat_knows():
    state = kuhn("Queen", "King")
    assert text.explain(state, "Bet", 0) == "'Bet' is legal now"
    assert "not a legal move now" in text.explain(state, "Call", 0)
    assert text.explain(state, "Bet", 1) == "P1 has no move now: it is P0's decision"
    nim = shipped("nim.rules").new_game(players=2, seed=0)
    assert text.explain(nim, "Take: 5") == ("'Take' is asked now, but '5' is not among its answers (1, 2, 3); "
                                      "asked by phase take, line 12: "
                                      "`choose a number from 1 to most as n \"Take\"`")
    assert "is not asked now" in text.explain(nim, "Give: 1")
    state.apply("Bet").apply("Fold")
    assert "the game is over" in text.explain(state, "Call")


def test_explain_names_what_the_seat_sees_of_the_thing_asked_for():
    """A taken space: the rule that asks and the space's mark; a card in
    another seat's hidden hand: nothing of where it is."""
    ttt = shipped("tic_tac_toe.rules").new_game(players=2, seed=0)
    ttt.apply("a1")
    why = text.explain(ttt, "a1", 1)
    assert "`choose one cells as s where mark is none \"Mark a space\"`" in why
    assert "a1 (cells) has x 1, y 1, mark 0" in why
    goof = shipped("goofspiel.rules").new_game(players=2, seed=0)
    assert goof.pile("hand", 1)[0].endswith("of hearts")
    why = text.explain(goof, "Bid: " + goof.pile("hand", 1)[0], 0)
    assert "is not among its answers" in why and " is in " not in why
    with pytest.raises(text.MoveRefused, match="asked by phase bidding"):
        text.parse_move(goof, "Bid: 1 of hearts", 0)


def test_render_is_the_view_in_words():
    words = text.render(kuhn("Queen", "King"), 0)
    assert words.splitlines()[0] == "Kuhn Poker, round 1; P0 (you) to move"
    assert "P1: staked 1, net 0; hand: 1 card (unseen); hidden: holding" in words


def _example():
    spec = importlib.util.spec_from_file_location("model_agent", ROOT / "examples" / "model_agent.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_loop_sends_refusals_back_and_plays_to_the_end(capsys):
    """A model that answers sloppily first and exactly after the refusal:
    every move of the game is one the model named."""
    agent = _example()
    replies = []

    def model(conversation):
        label = conversation[0].split("  1. ")[1].splitlines()[0]
        reply = label.lower() + "!" if len(conversation) == 1 else label
        replies.append(reply)
        return reply

    g = shipped("nim.rules")
    state = agent.play(g, 2, 4, model, quiet=True)
    assert state.is_over
    assert state.history == replies[1::2]
    assert f"{len(state.history)} replies refused" in capsys.readouterr().out
