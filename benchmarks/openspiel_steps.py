"""Per step, rulelang against OpenSpiel on the games both have.

    pip install -e '.[bench]'          # OpenSpiel (its wheels need Python 3.11+)
    python benchmarks/openspiel_steps.py [--seconds 1] [--rounds 5] [GAME...]

A step is one decision: list the legal moves (OpenSpiel: ``legal_actions``)
and apply one picked uniformly at random with ``random.Random``.  Chance is
sampled between the steps, and its time counted, but it is no step:
rulelang's sample mode draws it inside ``apply``; OpenSpiel's chance nodes
are sampled from ``chance_outcomes`` and applied.  Starting each game is
counted too.  Steps/s: the decisions of whole random games over their time.

For each example with a counterpart in OpenSpiel: rulelang through the move
API (``legal_moves`` + ``apply``, log off) and through ``Game.playouts``
(its steps: games times the API's mean steps per game); OpenSpiel's own
pure-Python version where it ships one (python_tic_tac_toe,
python_kuhn_poker: the same game, like for like); and its C++ game through
pyspiel, for reference; and the game's hand-written twin
(``benchmarks/twins/``, its steps the decisions ``small_games`` counts),
which says what a target can ask: a ratio to OpenSpiel above the twin's
("by hand") would need the engine to beat plain Python written for the
one game.  All of a game's ways are interleaved round by
round in one run; the table gives the medians and the ratios of medians
(rulelang's steps/s over OpenSpiel's: above 1, rulelang is faster).  The
C++ games are set to ours where they have the parameters (board size,
dice, cards, target); where they still differ the note under the table
says how, and the steps per game show it.  Without open_spiel installed,
it says so in one line and stops.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rulelang  # noqa: E402
from small_games import twin_moves  # noqa: E402

# Each example with its OpenSpiel counterparts: (label, name for
# pyspiel.load_game, how it differs from ours or "").  A python_* game is
# OpenSpiel's pure-Python one; the others are its C++ games.
GAMES = {
    "tic_tac_toe": [("python_tic_tac_toe", "python_tic_tac_toe", ""),
                    ("tic_tac_toe (C++)", "tic_tac_toe", "")],
    "kuhn_poker": [("python_kuhn_poker", "python_kuhn_poker", ""),
                   ("kuhn_poker (C++)", "kuhn_poker", "")],
    "connect_four": [("connect_four (C++)", "connect_four(columns=7,rows=6,x_in_row=4)", "")],
    "hex": [("hex (C++)", "hex(board_size=7,num_cols=7,num_rows=7,swap=True)",
             "the swap is a stone on the first stone's space, ours a yes/no decision then a stone")],
    "goofspiel": [("goofspiel (C++)", "turn_based_simultaneous_game(game=goofspiel(num_cards=13,"
                   "players=2,points_order=random,imp_info=True))",
                   "its simultaneous bids made one after the other by turn_based_simultaneous_game; "
                   "its last round (one card each) is no decision, ours is")],
    "liars_dice": [("liars_dice (C++)", "liars_dice(players=2,numdice=5,dice_sides=6)",
                    "one round (the first call ends the game), a bid is one action (ours: raise, "
                    "how many, showing), and sixes are wild; ours plays rounds until one has dice")],
    "blackjack": [("blackjack (C++)", "blackjack",
                   "one hand and no bet; ours five hands, each with a bet of 1 to 5")],
    "pig": [("pig (C++)", "pig(players=2,winscore=50,diceoutcomes=6)",
             "a turn may stop before its first roll (ours rolls first)")],
}


def through_api(game, players):
    """One random game through the move API; its steps."""
    def play(i):
        st = game.new_game(players=players, seed=i, log=False)
        choice = random.Random(i).choice
        steps = 0
        while not st.is_over:
            st.apply(choice(st.legal_moves()))
            steps += 1
        return steps
    return play


def batched(game, players):
    """One random game by Game.playouts; its steps are not known (None)."""
    def play(i):
        game.playouts(1, seed=i, players=players)
    return play


def openspiel(game):
    """One random game of an OpenSpiel game; its steps."""
    def play(i):
        rng = random.Random(i)
        choice, uniform = rng.choice, rng.random
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action, left = outcomes[-1][0], uniform()
                for a, p in outcomes:
                    left -= p
                    if left <= 0:
                        action = a
                        break
                state.apply_action(action)
            else:
                state.apply_action(choice(state.legal_actions()))
                steps += 1
        return steps
    return play


def by_hand(module, players):
    """One game of the hand-written twin; its steps are counted apart (None)."""
    def play(i):
        module.playout(i, players)
    return play


def run(play, seconds, first):
    """(games, steps or None, elapsed) of ``play(first)``, ``play(first + 1)`` … for about ``seconds``."""
    games, steps, start = 0, 0, time.perf_counter()
    while True:
        n = play(first + games)
        games += 1
        if n is not None:
            steps += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, (steps if n is not None else None), elapsed


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("names", nargs="*", metavar="GAME", help=f"some of {', '.join(GAMES)}")
    args = p.parse_args(argv)
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    except ImportError:
        print("openspiel_steps: open_spiel is not installed (pip install -e '.[bench]'): skipped")
        return
    from importlib.metadata import version
    print(f"Python {sys.version.split()[0]}, OpenSpiel {version('open_spiel')}, "
          f"{args.rounds} rounds of {args.seconds}s each, interleaved")
    print("step: one decision (list the legal moves/actions, apply one picked uniformly at random);")
    print("      chance sampled between steps, its time counted, not a step; new games counted.")
    print("API: rulelang legal_moves + apply (log off); batched: rulelang Game.playouts;")
    print("by hand: the game's hand-written twin (benchmarks/twins/), the most a ratio can be")
    print("x: steps/s over OpenSpiel's (ratio of medians; above 1, faster than OpenSpiel)")
    print()
    print(f"{'':<14}{'':<30}{'steps/game':^14}{'steps/s (medians)':^30}{'over OpenSpiel':^26}")
    print(f"{'game':<14}{'OpenSpiel game':<30}{'ours':>7}{'theirs':>7}{'API':>10}{'batched':>10}"
          f"{'OpenSpiel':>10}{'API':>9}{'batched':>9}{'by hand':>9}")
    notes = []
    for name in args.names or GAMES:
        game = rulelang.load(ROOT / "examples" / f"{name}.rules")
        players = game.min_players
        module = importlib.import_module(f"twins.{name}")
        ways = {"api": through_api(game, players), "batched": batched(game, players),
                "hand": by_hand(module, players)}
        for _, load, _ in GAMES[name]:
            ways[load] = openspiel(pyspiel.load_game(load))
        rates = {k: [] for k in ways}
        games = {k: 0 for k in ways}
        steps = {k: 0 for k in ways}
        for _ in range(args.rounds):
            for k, play in ways.items():
                g, s, elapsed = run(play, args.seconds, games[k])
                games[k] += g
                steps[k] += s or 0
                rates[k].append((g, s, elapsed))
        per_game = {k: steps[k] / games[k] for k in ways if k not in ("batched", "hand")}
        per_game["batched"] = per_game["api"]
        per_game["hand"] = twin_moves(module, players, 1000)
        med = {k: statistics.median((s if s is not None else g * per_game[k]) / e for g, s, e in v)
               for k, v in rates.items()}
        for i, (label, load, note) in enumerate(GAMES[name]):
            if note:
                notes.append(f"{len(notes) + 1}. {label}: {note}")
                label += f" [{len(notes)}]"
            ours = (f"{name:<14}" if i == 0 else f"{'':<14}")
            rl = (f"{per_game['api']:>7.1f}" if i == 0 else f"{'':>7}")
            rs = (f"{med['api']:>10.0f}{med['batched']:>10.0f}" if i == 0 else f"{'':>10}{'':>10}")
            print(f"{ours}{label:<30}{rl}{per_game[load]:>7.1f}{rs}{med[load]:>10.0f}"
                  f"{med['api'] / med[load]:>8.2f}x{med['batched'] / med[load]:>8.2f}x"
                  f"{med['hand'] / med[load]:>8.2f}x", flush=True)
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
