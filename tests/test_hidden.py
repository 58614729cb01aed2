"""Hidden information: every seat is given only what it may see — its view,
the log as it reads it (text, value, to_dict), its moves, the messages of
the moves it may not make — and the conformance harness shows it (check
'hidden'), failing on a planted leak.  Dice and cards are forced
(chance="explicit") wherever rules are played."""

from __future__ import annotations

import json

import pytest

import rulelang
from rulelang import CHANCE, IllegalMoveError, RulesetRuntimeError
from rulelang.engine import moves as moves_module, state as state_module, visibility
from rulelang.testing import check_ruleset
from helpers import ROOT

HIDDEN = ROOT / "tests" / "conformance" / "hidden.rules"

TWO_HANDS = """
game "Two Hands"
players 2..3
per player { points 0 }
deck cards { Ace x2  King x2  Queen x2  Jack x2 }
pile vault hidden
pile hand per player, hidden
pile table
on draw from cards as c where round >= 1 { log "{c} arrives" }
setup { draw 1 from cards to vault }
turn {
    phase deal { for each other player as p { draw 1 from cards to hand of p } }
    phase play {
        choose up to 1 cards from hand as picked "play"
        move picked from hand to table
        for each card in vault as v { log "the vault holds {v}" }
    }
}
end "done" when round > 2
score { points }
"""

CARDS = ("Ace", "King", "Queen", "Jack")


@pytest.fixture(scope="module")
def game():
    return rulelang.loads(TWO_HANDS, "two_hands.rules")


def start(game, *outcomes, players=2):
    state = game.new_game(players=players, seed=1, chance="explicit")
    for label in outcomes:
        state.apply(label)
    return state


def names_in(data):
    """The card names that appear anywhere in ``data`` (as JSON)."""
    text = json.dumps(data)
    return {c for c in CARDS if c in text}


def entries(state, seat, kind=None):
    return [e for e in state.log_for(seat) if kind is None or e.kind == kind]


def test_a_setup_draw_into_a_shared_hidden_pile_is_read_by_nobody(game):
    """A card the setup draws into a shared hidden pile (seat 0 in scope) is
    named in the full log only: seat 0, seat 1 and a spectator read 'draws a
    card', with no value."""
    state = start(game, "draw Queen")
    full = [e for e in state.log if e.kind == "draw"]
    assert [e.text for e in full] == ["draws Queen"] and full[0].seen_by == ()
    for seat in (0, 1, None):
        (draw,) = entries(state, seat, "draw")
        assert draw.text == "draws a card" and draw.value is None
        assert not names_in(draw.to_dict()) and not names_in(state.view(seat))
        assert state.view(seat)["piles"]["vault"] == {"size": 1}


def test_a_draw_into_another_seats_hand_is_read_by_its_owner_only(game):
    """P0's turn deals a card into P1's hidden hand: P1 reads its name, P0
    (the player in scope, who drew it) and a spectator do not."""
    state = start(game, "draw Queen", "draw Ace")
    drawn = [e for e in state.log if e.kind == "draw"][-1]
    assert drawn.player == 0 and drawn.seen_by == (1,) and drawn.text == "draws Ace"
    assert entries(state, 1, "draw")[-1].text == "draws Ace"
    for seat in (0, None):
        draw = entries(state, seat, "draw")[-1]
        assert draw.text == "draws a card" and not names_in(draw.to_dict())
    assert state.view(1)["players"][1]["piles"]["hand"] == ["Ace"]
    assert state.view(0)["players"][1]["piles"]["hand"] == {"size": 1}


def test_value_and_to_dict_are_redacted_in_the_public_form(game):
    """What a seat may not read is gone from the entry it gets, value and
    to_dict() included; the full entry (State.log) keeps both forms."""
    state = start(game, "draw Queen", "draw Ace")
    drawn = [e for e in state.log if e.kind == "draw"][-1]
    card = drawn.value
    assert isinstance(card, int)
    theirs = drawn.for_seat(0)
    assert theirs.value is None and theirs.text == "draws a card"
    assert theirs.to_dict()["value"] is None and not names_in(theirs.to_dict())
    assert drawn.text_for(0) == "draws a card" and drawn.text_for(1) == "draws Ace"
    assert drawn.for_seat(1) is drawn
    full = drawn.to_dict()
    assert full["value"] == card and full["seen_by"] == [1] and full["public"] == "draws a card"
    assert rulelang.LogEntry.from_dict(full) == drawn


def test_log_lines_that_name_cards_are_read_as_their_pile_is(game):
    """An 'on draw' line naming the card is read by whoever sees the pile it
    went to; a line naming a card of a shared hidden pile by nobody."""
    state = start(game, "draw Queen", "draw Ace")
    arrives = [e for e in state.log if e.kind == "log"]
    assert [e.text for e in arrives] == ["Ace arrives"] and arrives[0].seen_by == (1,)
    assert entries(state, 0, "log")[-1].text == "a card arrives"
    state.apply("play nothing")                      # P0: its hand is empty
    vault = [e for e in state.log if e.text.startswith("the vault")]
    assert [e.text for e in vault] == ["the vault holds Queen"] and vault[0].seen_by == ()
    for seat in (0, 1, None):
        assert entries(state, seat, "log")[-1].text == "the vault holds a card"


def test_a_choice_from_a_hidden_hand_is_read_by_the_chooser_only(game):
    """P1 choosing from its own hidden hand: it reads which cards; P0 reads
    how many."""
    state = start(game, "draw Queen", "draw Ace", "play nothing", "draw King")
    assert state.current_player == 1
    state.apply("play Ace")
    choice = [e for e in state.log if e.kind == "choose"][-1]
    assert choice.text == "play: Ace" and choice.seen_by == (1,)
    mine, theirs = choice.for_seat(1), choice.for_seat(0)
    assert mine.text == "play: Ace"
    assert theirs.text == "play: 1 card" and theirs.value == 1 and not names_in(theirs.to_dict())


@pytest.mark.parametrize("seat", [-1, 2, 5, True, False, 0.0, "0", 1.5])
def test_a_seat_that_does_not_exist_is_refused(game, seat):
    """view, log_for, legal_moves(player=) and apply(player=) of anything but
    None or a seat of this 2-player game raise ValueError (bools too)."""
    state = start(game, "draw Queen")
    for call in (lambda: state.view(seat), lambda: state.log_for(seat),
                 lambda: state.legal_moves(player=seat),
                 lambda: state.apply(state.legal_moves()[0], player=seat)):
        with pytest.raises(ValueError, match="no seat"):
            call()
    state.view(None), state.view(0), state.view(1)


def test_a_seat_checked_apply_refuses_other_turns_without_revealing_them(game):
    """apply(move, player=seat) refuses a move on another seat's decision (a
    legal one included) and every chance outcome, with a message that names
    none of the other seat's moves, and changes nothing; the seat to move
    gets only its own moves in the message for a bad one."""
    state = start(game, "draw Queen", "draw Ace", "play nothing", "draw King")
    assert state.current_player == 1 and state.pile("hand", 1) == ["Ace"]
    before = state.clone()
    for move in [*state.legal_moves(), "play Ace", "\x00 junk"]:
        with pytest.raises(IllegalMoveError) as e:
            state.apply(move, player=0)
        assert not names_in(str(e.value)) and "P1 is to move" in str(e.value)
    with pytest.raises(IllegalMoveError) as e:
        state.apply("play King", player=1)
    assert "play Ace" in str(e.value) and "Jack" not in str(e.value)
    assert state == before
    assert state.legal_moves(player=0) == [] and state.legal_moves(player=None) == []
    assert state.legal_moves(player=1) == state.legal_moves()
    assert "legal_moves" not in state.view(0) and state.view(1)["legal_moves"] == ["play nothing", "play Ace"]
    state.apply("play Ace", player=1)
    assert state.current_player == CHANCE
    for seat in (0, 1):
        with pytest.raises(IllegalMoveError, match="chance outcome"):
            state.apply(state.legal_moves()[0], player=seat)
    with pytest.raises(IllegalMoveError, match="spectator"):
        state.apply(state.legal_moves()[0], player=None)
    assert state.legal_moves(player=0) == []


def test_choosing_among_cards_one_may_not_see_is_refused():
    """A choice among the cards of a pile its chooser may not see (another
    seat's hidden hand, a shared hidden pile) would name them in its moves:
    the rules stop with a RulesetRuntimeError that points to 'draw'."""
    for pile in ("hand of p", "vault"):
        g = rulelang.loads(TWO_HANDS.replace(
            'choose up to 1 cards from hand as picked "play"\n        move picked from hand to table',
            f'for each other player as p {{ choose one card from {pile} as peek "peek" }}'),
            "blind.rules")
        with pytest.raises(RulesetRuntimeError, match="may not see.*draw") as e:
            start(g, "draw Queen", "draw Ace")
        assert "Ace" not in e.value.message and "Queen" not in e.value.message


def test_the_play_command_shows_each_seat_its_own_log(game, tmp_path, capsys, monkeypatch):
    """rulelang play prints the log as the seat to move reads it."""
    from rulelang import cli
    path = tmp_path / "hidden.rules"
    path.write_text(HIDDEN.read_text())
    answers = iter(["1"] * 40)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", str(path), "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "draws a card" in out and "the vault holds a card" in out


# ------------------------------------------------------------- the harness


def quick(path=HIDDEN, **kw):
    """A short run in which every game keeps its log (so the log is checked)."""
    kw.setdefault("games", 4)
    return check_ruleset(rulelang.load(path), fresh_games=0, log_every=1, **kw)


RULESETS = sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "tests" / "conformance").glob("*.rules"))


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_games_that_keep_their_log_pass_the_hidden_check(path):
    """A game of each chance mode that keeps its log (the log's
    hidden-information checks run only there) finds nothing on any ruleset
    (tests/test_conformance.py plays many more, every check included)."""
    report = quick(path, games=1)
    assert report.ok, report.format()


def failed(report):
    return {f.check for f in report.failures}


def test_a_public_form_that_shows_the_card_is_caught(monkeypatch):
    """A LogEntry.for_seat that gives every seat the full entry."""
    monkeypatch.setattr(moves_module.LogEntry, "for_seat", lambda self, seat: self)
    assert "hidden" in failed(quick())


def test_a_value_left_in_the_public_form_is_caught(monkeypatch):
    """The bug as found: the text hidden, the value (the card) left in."""
    real = state_module.State.note

    def note(self, player, kind, text, value, public=None, seen_by=None, public_value=None):
        real(self, player, kind, text, value, public, seen_by, value)
    monkeypatch.setattr(state_module.State, "note", note)
    assert "hidden" in failed(quick())


@pytest.mark.parametrize("plant", ["everyone", "in scope"])
def test_a_draw_seen_by_the_wrong_seats_is_caught(monkeypatch, plant):
    """Draws logged as everyone's, or (as found) as the player in scope's:
    the draws the setup makes into the vault and the deals into others'
    hands show it."""
    real = state_module.State.note

    def note(self, player, kind, text, value, public=None, seen_by=None, public_value=None):
        if kind == "draw" and seen_by is not None:
            seen_by = None if plant == "everyone" else (player,)
        real(self, player, kind, text, value, public, seen_by, public_value)
    monkeypatch.setattr(state_module.State, "note", note)
    assert "hidden" in failed(quick(chance=("explicit",)))


def test_a_refusal_that_lists_the_other_seats_moves_is_caught(monkeypatch):
    """The message as found: a move on another seat's turn answered with
    that seat's options."""
    real = visibility.Sight.refusal

    def refusal(self, move):
        why = real(self, move)
        if why is not None and not self.st.is_chance_node:
            why += "; legal moves: " + ", ".join(m.label for m in self.st.legal_moves())
        return why
    monkeypatch.setattr(visibility.Sight, "refusal", refusal)
    assert "hidden" in failed(quick(games=6))


def test_moves_that_name_a_hidden_card_are_caught(monkeypatch):
    """A seat's moves that carry a card of the deck (shown in its view too)."""
    real = visibility.Sight.moves

    def moves(self):
        found = real(self)
        deck = self.st.piles[0]
        if found and deck:
            found = found + [rulelang.Move(f"peek {self.st.prog.card_names[deck[0]]}", self.seat)]
        return found
    monkeypatch.setattr(visibility.Sight, "moves", moves)
    assert failed(quick()) & {"hidden", "view"}


def test_only_a_choice_the_chooser_may_not_see_is_checked_as_it_comes():
    """The check that a chooser sees the cards (above) is made at run time
    only where it can fail: a choice from one's own hidden hand needs none
    (its owner sees it), one from another seat's hand or a shared hidden
    pile keeps it (issue 20: the check was a cost at every decision)."""
    from rulelang.engine.ops.choices import ChooseCardsOp, ChooseOneOfOp
    guards = {}
    for pile in ("hand", "hand of p", "vault"):
        g = rulelang.loads(TWO_HANDS.replace(
            'choose up to 1 cards from hand as picked "play"\n        move picked from hand to table',
            f'for each other player as p {{ choose one card from {pile} as peek "peek" }}'),
            "blind.rules")
        ops = [op for code in g.prog.codes for op in code if isinstance(op, ChooseOneOfOp)]
        guards[pile] = [op.guard is not None for op in ops]
    assert guards == {"hand": [False], "hand of p": [True], "vault": [True]}
    own = rulelang.loads(TWO_HANDS, "own.rules")
    assert [op.guard for code in own.prog.codes for op in code
            if isinstance(op, ChooseCardsOp)] == [False]
