"""The small games in examples/: each loads, plays to its end in both
chance modes, and plays by its rules (dice forced: explicit chance mode).
They are also the games benchmarks/small_games.py times against their
hand-written twins."""

from __future__ import annotations

import random

import pytest

from rulelang import CHANCE

from helpers import EXAMPLES


def test_there_are_examples():
    assert {p.stem for p in EXAMPLES} >= {"pig", "nim", "liars_dice", "goofspiel", "kuhn_poker", "blackjack"}


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_plays_to_its_end(path, chance, shipped_game):
    game = shipped_game(path.name)
    for seed in range(20):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_game(players=players, seed=seed, chance=chance)
        rng = random.Random(seed)
        for _ in range(5000):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_moves()))
        assert state.is_over
        assert len(state.result().winners) >= 1


@pytest.fixture
def pig(shipped_game):
    """A new two-player game of Pig, every die forced by the test."""
    return shipped_game("pig.rules").new_game(players=2, seed=0, chance="explicit")


def test_pig_a_roll_adds_to_what_is_held_and_banking_keeps_it(pig):
    state = pig
    state.apply("roll 4").apply("Roll again: yes").apply("roll 5")
    assert state.stat("held", 0) == 9
    state.apply("Roll again: no")
    assert state.stat("banked", 0) == 9 and state.current_player == CHANCE
    assert state.turn_player == 1


def test_pig_a_one_loses_the_turn(pig):
    state = pig
    state.apply("roll 6").apply("Roll again: yes").apply("roll 1")
    assert state.stat("banked", 0) == 0 and state.turn_player == 1


def test_pig_reaching_the_target_ends_the_game(pig):
    state = pig
    for face in [6] * 8 + [2]:      # 50: no more 'Roll again' is asked
        state.apply(f"roll {face}")
        if not state.is_over and state.current_player == 0:
            state.apply("Roll again: yes")
    assert state.is_over and state.result().winners == (0,)
    assert state.stat("banked", 0) == 50


def test_nim_whoever_takes_the_last_counter_wins(shipped_game):
    game = shipped_game("nim.rules")
    state = game.new_game(players=2, seed=0)
    assert [m.label for m in state.legal_moves()] == ["Take: 1", "Take: 2", "Take: 3"]
    for take in [3, 3, 3, 3, 3, 3]:     # 18 taken, P1 took last; 3 left for P0
        state.apply(f"Take: {take}")
    assert state.current_player == 0 and state.stat("heap") == 3
    state.apply("Take: 3")
    assert state.is_over and state.result().winners == (0,)


# ------------------------------------------------------------ Liar's Dice


@pytest.fixture
def liars(shipped_game):
    """Two players with two dice each, every die forced by the test."""
    game = shipped_game("liars_dice.rules").with_params({"dice": 2})
    return game.new_game(players=2, seed=0, chance="explicit")


def _roll(state, *faces):
    for face in faces:
        state.apply(f"roll {face}")


def test_liars_dice_each_cup_is_seen_by_its_owner_only(liars):
    _roll(liars, 5, 5, 2, 6)
    assert liars.stat("cup", 0) == (5, 5) and liars.stat("cup", 1) == (2, 6)
    assert "cup" not in liars.view(1)["players"][0]["stats"]
    assert liars.view(0)["players"][0]["stats"]["cup"] == (5, 5)
    assert not any("5, 5" in e.text for e in liars.log_for(1))


def test_liars_dice_a_bid_must_be_raised(liars):
    _roll(liars, 5, 5, 2, 6)
    liars.apply("Raise").apply("How many dice: 2").apply("Showing: 5")
    assert liars.current_player == 1 and (liars.stat("bid_count"), liars.stat("bid_face")) == (2, 5)
    liars.apply("Raise")
    labels = [m.label for m in liars.legal_moves()]
    assert labels == ["How many dice: 2", "How many dice: 3", "How many dice: 4"]
    liars.apply("How many dice: 2")     # as many dice: only a higher face, so a 6
    assert (liars.stat("bid_count"), liars.stat("bid_face")) == (2, 6)
    assert liars.current_player == 0


def test_liars_dice_a_true_bid_called_costs_the_caller_a_die(liars):
    _roll(liars, 5, 5, 2, 5)
    liars.apply("Raise").apply("How many dice: 3").apply("Showing: 5")
    liars.apply("Liar!")
    assert liars.stat("in_hand", 1) == 1 and liars.stat("in_hand", 0) == 2
    assert "P0's cup: 5, 5" in [e.text for e in liars.log_for(1)]
    assert liars.stat("opener") == 1      # the loser opens the next round


def test_liars_dice_a_false_bid_called_costs_the_bidder_a_die_and_the_last_die_ends_it(shipped_game):
    game = shipped_game("liars_dice.rules").with_params({"dice": 1})
    state = game.new_game(players=2, seed=0, chance="explicit")
    _roll(state, 3, 4)
    state.apply("Raise").apply("How many dice: 2").apply("Showing: 3")
    state.apply("Liar!")
    assert state.is_over and state.result().winners == (1,)
    assert state.result().scores == (0, 1)


def test_liars_dice_plays_with_any_number_of_players_and_dice(shipped_game):
    game = shipped_game("liars_dice.rules").with_params({"dice": 3})
    state = game.new_game(players=5, seed=1)
    assert [state.stat("in_hand", p) for p in range(5)] == [3] * 5
    assert sum(len(state.stat("cup", p)) for p in range(5)) == 15


# ------------------------------------------------------------ Goofspiel


@pytest.fixture
def goof(shipped_game):
    return shipped_game("goofspiel.rules").new_game(players=2, seed=0, chance="explicit")


def test_goofspiel_each_player_holds_one_suit(goof):
    assert sorted(goof.pile("hand", 0)) == sorted(f"{r} of spades" for r in range(1, 14))
    assert sorted(goof.pile("hand", 1)) == sorted(f"{r} of hearts" for r in range(1, 14))


def test_goofspiel_bids_are_secret_until_both_are_made_and_the_higher_takes_the_prize(goof):
    goof.apply("draw 7 of diamonds")
    goof.apply("Bid: 9 of spades")
    assert "9 of spades" not in str(goof.view(1)) and goof.current_player == 1
    assert "Bid: chosen in secret" in [e.text for e in goof.log_for(1)]
    goof.apply("Bid: 4 of hearts")
    assert goof.stat("points", 0) == 7 and goof.stat("points", 1) == 0
    assert goof.view(1)["players"][0]["stats"]["offer"] == 9


def test_goofspiel_a_tie_sets_the_prize_aside(goof):
    goof.apply("draw 12 of diamonds").apply("Bid: 5 of spades").apply("Bid: 5 of hearts")
    assert goof.stat("points", 0) == goof.stat("points", 1) == 0
    assert goof.pile("set_aside") == ["12 of diamonds"]


# ------------------------------------------------------------ Kuhn poker


def _kuhn(shipped_game, first, second):
    state = shipped_game("kuhn_poker.rules").new_game(players=2, seed=0, chance="explicit")
    state.apply(f"draw {first}").apply(f"draw {second}")
    return state


def test_kuhn_poker_each_card_is_seen_by_its_holder(shipped_game):
    state = _kuhn(shipped_game, "Queen", "King")
    assert state.stat("holding", 0) == 2
    assert "holding" not in state.view(1)["players"][0]["stats"]
    assert state.view(1)["players"][0]["piles"]["hand"] == {"size": 1}


def test_kuhn_poker_check_check_goes_to_showdown(shipped_game):
    state = _kuhn(shipped_game, "Queen", "King")
    state.apply("Check").apply("Check")
    assert state.is_over and state.result().scores == (-1, 1)
    assert "P0's holding: 2" in [e.text for e in state.log_for(1)]


def test_kuhn_poker_a_fold_loses_the_stake(shipped_game):
    state = _kuhn(shipped_game, "King", "Jack")
    state.apply("Bet").apply("Fold")
    assert state.is_over and state.result().scores == (1, -1)


def test_kuhn_poker_check_bet_call(shipped_game):
    state = _kuhn(shipped_game, "Jack", "Queen")
    state.apply("Check").apply("Bet").apply("Call")
    assert state.is_over and state.result().scores == (-2, 2)


# ------------------------------------------------------------ Blackjack


def _blackjack(shipped_game, bet, mine, up, hole):
    """One player, one hand: the bet, the player's two cards, the dealer's
    card face up and the hole card, all forced."""
    game = shipped_game("blackjack.rules").with_params({"hands": 1})
    state = game.new_game(players=1, seed=0, chance="explicit")
    state.apply(f"Bet: {bet}")
    for card in (*mine, up, hole):
        state.apply(f"draw {card}")
    return state


def test_blackjack_the_dealer_is_no_seat_and_its_hole_card_is_hidden(shipped_game):
    state = _blackjack(shipped_game, 2, ["9 of clubs", "7 of hearts"], "10 of spades", "6 of clubs")
    assert state.current_player == 0 and [m.label for m in state.legal_moves()] == [
        "Hit", "Stand"]
    dealer = state.view(0)["actors"]["dealer"]
    assert dealer["piles"] == {"hand": ["10 of spades"], "hole": {"size": 1}}
    assert "6 of clubs" not in str(state.view(0))


def test_blackjack_the_dealer_takes_cards_until_17(shipped_game):
    state = _blackjack(shipped_game, 2, ["10 of clubs", "8 of hearts"], "10 of spades", "6 of clubs")
    state.apply("Stand")
    state.apply("draw 3 of hearts")      # 19: the dealer stops
    assert state.is_over and state.result().scores == (-2,)
    assert "the dealer has 19" in [e.text for e in state.log_for(0)]


def test_blackjack_a_bust_loses_and_an_ace_counts_one_or_eleven(shipped_game):
    state = _blackjack(shipped_game, 3, ["Ace of clubs", "6 of hearts"], "10 of spades", "7 of clubs")
    state.apply("Hit").apply("draw 10 of hearts")     # 1 + 6 + 10: 17, not 27
    assert not state.is_over and state.current_player == 0
    state.apply("Hit").apply("draw 9 of hearts")      # 26: bust
    assert state.is_over and state.result().scores == (-3,)


def test_blackjack_a_blackjack_wins_three_to_two_and_a_tie_is_a_push(shipped_game):
    state = _blackjack(shipped_game, 2, ["Ace of clubs", "King of hearts"], "10 of spades",
                       "7 of clubs")
    assert state.is_over and state.result().scores == (3,)
    push = _blackjack(shipped_game, 4, ["10 of clubs", "8 of hearts"], "10 of spades", "8 of clubs")
    push.apply("Stand")
    assert push.is_over and push.result().scores == (0,)
