"""OpenSpiel's MCTS bot against a uniform random bot on a ruleset, through
the OpenSpiel adapter (rulelang.adapters.openspiel): the bot's win, draw
and loss rates, seats alternating.

    pip install -e '.[adapters]'
    python benchmarks/openspiel_mcts.py [RULES] [--games 100] [--simulations 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="?", default=str(ROOT / "examples" / "tic_tac_toe.rules"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        print("openspiel_mcts: OpenSpiel is not installed (pip install -e '.[adapters]'); skipped")
        return
    from rulelang.adapters import openspiel as adapter

    game = pyspiel.load_game(adapter.register(args.rules))
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator,
                       random_state=rng)
    won = drawn = lost = 0
    start = time.perf_counter()
    for i in range(args.games):
        seat = i % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        mine, other = state.returns()[seat], state.returns()[1 - seat]
        won += mine > other
        lost += mine < other
        drawn += mine == other
    took = time.perf_counter() - start
    print(f"{game.get_type().long_name}: MCTS ({args.simulations} simulations, random rollouts) "
          f"against random, {args.games} games, seats alternating: won {won}, drawn {drawn}, "
          f"lost {lost} (win rate {won / args.games:.0%}), {took:.1f} s")


if __name__ == "__main__":
    main()
