"""``rulelang.players``: random, greedy and mcts choose only legal moves,
never change the state they are shown, repeat themselves for a seed, read
nothing their seat may not see, and mcts plays clearly better than random."""

from __future__ import annotations

import pytest

import rulelang
import rulelang.players as players_module
from rulelang.players import GreedyPlayer, MctsPlayer, RandomPlayer, determinize, player
from helpers import ROOT

EXAMPLES = ROOT / "examples"


def load(name, **params):
    game = rulelang.load(str(EXAMPLES / name))
    return game.with_params(params) if params else game


@pytest.mark.parametrize("spec, kind, name", [
    ("random", RandomPlayer, "random"), ("greedy", GreedyPlayer, "greedy"),
    ("mcts", MctsPlayer, "mcts:200"), ("mcts:500", MctsPlayer, "mcts:500"),
    ("MCTS:2s", MctsPlayer, "mcts:2s"), ("mcts:0.5s", MctsPlayer, "mcts:0.5s")])
def test_specs(spec, kind, name):
    p = player(spec, seed=1)
    assert type(p) is kind and p.name == name


@pytest.mark.parametrize("spec", ["", "rand", "mcts:", "mcts:0", "mcts:-3", "mcts:0s", "mcts:2m",
                                  "greedy:0", "greedy:9", "greedy:x", "mcts:1.5", None, 7])
def test_a_bad_spec_is_one_clear_sentence(spec):
    with pytest.raises(ValueError) as info:
        player(spec)
    text = str(info.value)
    assert "\n" not in text and repr(spec) in text


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:12"])
@pytest.mark.parametrize("name, n, params", [
    ("tic_tac_toe.rules", 2, {}), ("pig.rules", 3, {"target": 20}),
    ("goofspiel.rules", 3, {}), ("liars_dice.rules", 2, {"dice": 2}),
    ("blackjack.rules", 2, {"hands": 2})])
def test_only_legal_moves_and_the_state_shown_is_never_changed(spec, name, n, params):
    game = load(name, **params)
    state = game.new_game(players=n, seed=5)
    bots = [player(spec, seed=s) for s in range(n)]
    made = 0
    while not state.is_over and made < 150:
        before = state.to_json()
        move = bots[state.current_player].choose(state)
        assert state.to_json() == before
        assert move in state.legal_moves()
        state.apply(move)
        made += 1
    assert made > 3


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:15"])
def test_the_same_seed_plays_the_same_game(spec):
    game = load("goofspiel.rules")

    def played(seed):
        state = game.new_game(players=2, seed=3)
        bots = [player(spec, seed=seed + s) for s in range(2)]
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
        return state.history
    assert played(10) == played(10)
    assert len({tuple(played(s)) for s in (10, 20, 30, 40)}) > 1   # (the seed matters)


def test_mcts_beats_random_at_tic_tac_toe():
    """40 games, seats alternated.  Random against random, the first player
    wins 58%, the second 29%; a player no better than random would win at
    most 58% of its games on either seat: 32 wins of 40 or more then has a
    chance below 1 in 10 000 (binomial, p = 0.58)."""
    game = load("tic_tac_toe.rules")
    won = lost = 0
    for i in range(40):
        state = game.new_game(seed=i, log=False)
        mine = i % 2
        bots = {mine: player("mcts:100", seed=i), 1 - mine: player("random", seed=1000 + i)}
        while not state.is_over:
            state.apply(bots[state.current_player].choose(state))
        winners = state.result().winners
        won += winners == (mine,)
        lost += winners == (1 - mine,)
    assert won >= 32 and lost <= 2, (won, lost)


def test_mcts_takes_the_winning_nim_move():
    """21 in the heap, 1 to 3 a turn: leaving a multiple of 4 wins; from 7,
    take 3 (every other move loses against good play)."""
    game = load("nim.rules")
    state = game.new_game(seed=0)
    state.set_stat("heap", 7)
    assert player("mcts:300", seed=2).choose(state).label.endswith("3")


# ------------------------------------------------------------------ hidden cards

def blackjack_variants():
    """The same decision (17 against the dealer's Queen) with each of
    several hole cards, the card swapped with its place in the shoe: every
    variant looks the same to the player.  None is the real deal (its hole
    is the 8 of clubs): a game the rules could not have dealt cannot be
    played again (``Beliefs`` falls back to ``determinize``), while the
    real one could, and a close decision thought about the other way may
    come out otherwise by chance alone."""
    game = load("blackjack.rules", hands=1)
    base = game.new_game(players=1, seed=2086)       # (10 and 7 against a Queen)
    base.apply("Bet: 1")
    assert base.pile("dealer.hole") == ["8 of clubs"]
    out = []
    for hole in ["7 of hearts", "6 of clubs", "9 of hearts", "Ace of spades",
                 "5 of diamonds", "10 of hearts"]:
        st = base.clone()
        shoe = st.pile("shoe")
        shoe.remove(hole)
        shoe.append("8 of clubs")
        st.set_pile("shoe", shoe)
        st.set_pile("dealer.hole", [hole])
        assert sorted(st.pile("shoe") + st.pile("dealer.hole")) == \
            sorted(base.pile("shoe") + base.pile("dealer.hole"))
        assert st.view(0) == base.view(0)
        out.append(st)
    return out


@pytest.mark.parametrize("spec", ["greedy", "mcts:150"])
def test_a_player_never_reads_the_hidden_cards(spec, monkeypatch):
    """The same choice, move for move of its thinking, whatever the hole
    card; and a player that did look (the determinization replaced by a
    plain clone with a new generator) changes its mind with the hole card,
    so this test would catch one that looked."""
    variants = blackjack_variants()
    honest = {player(spec, seed=9).choose(st).label for st in variants}
    assert len(honest) == 1

    def peek(state, seat, rng):
        c = state.clone()
        c._reseed(rng.getrandbits(63))
        return c
    monkeypatch.setattr(players_module, "determinize", peek)
    cheating = {player(spec, seed=9).choose(st).label for st in variants}
    assert cheating == {"Hit", "Stand"}


def test_determinize_keeps_what_the_seat_sees_and_deals_the_rest_again():
    game = load("goofspiel.rules")
    state = game.new_game(players=2, seed=1)
    import random
    seen = []
    unseen = [("hand", 1), ("prizes", None), ("suits", None), ("bid", 1)]
    for k in range(20):
        c = determinize(state, 0, random.Random(k))
        assert c.view(0) == state.view(0)
        assert sorted(c.pile("hand", 1) + c.pile("prizes") + c.pile("suits")) == \
            sorted(state.pile("hand", 1) + state.pile("prizes") + state.pile("suits"))
        assert [len(c.pile(p, s)) for p, s in unseen] == [len(state.pile(p, s)) for p, s in unseen]
        seen.append((tuple(c.pile("hand", 1)), tuple(c.pile("prizes"))))
    assert len(set(seen)) > 5           # dealt again, not copied
    assert state.view(0) == game.new_game(players=2, seed=1).view(0)  # the original untouched


def test_rulelang_play_takes_any_player_for_a_seat(capsys):
    """Both seats played by built-in players: the game runs to its end."""
    from rulelang.cli import main
    assert main(["play", str(EXAMPLES / "tic_tac_toe.rules"), "--seed", "1",
                 "--seat", "0=mcts:60", "--seat", "1=greedy"]) == 0
    out = capsys.readouterr().out
    assert "Game over: " in out
    assert main(["play", str(EXAMPLES / "nim.rules"), "--seat", "0=wizard"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --seat 0=wizard: unknown player 'wizard': a player is random, "
                          "greedy, mcts") and "\n" not in err
