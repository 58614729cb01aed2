"""A language-model agent loop over any ruleset, through the text view
(rulelang.adapters.text): each seat to move is shown its prompt, the
model's reply is read by parse_move, and a reply that names no legal move
is sent back with the reason and the nearest moves, for another try.

A scripted stand-in plays the model here (no network, no weights): it
reads the numbered options from the prompt and answers with a move
string or a number, and one reply in four is sloppy (the wrong case, a
number out of range, a word that is no move) so that the refusals show.
Put a real model's call in its place (``ask``).

    python examples/model_agent.py [RULES] [--players 2] [--seed 0] [--quiet]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import re
import sys
from typing import Callable, List

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.adapters import text  # noqa: E402
from rulelang.show import terminal  # noqa: E402

#: The model: given the conversation so far (prompts and feedback), its reply.
Model = Callable[[List[str]], str]

#: Replies refused before a seat's turn is given up as an error.
TRIES = 3


def scripted_model(seed: int) -> Model:
    """A stand-in for a language model that reads the options off the last prompt."""
    rng = random.Random(seed)

    def ask(conversation: List[str]) -> str:
        options = re.findall(r"^  (\d+)\. (.*)$", conversation[-1], re.M)
        if not options:         # feedback after a refusal: read the prompt before it
            options = re.findall(r"^  (\d+)\. (.*)$", conversation[-2], re.M)
        number, label = rng.choice(options)
        sloppy = len(conversation) == 1 and rng.random() < 0.25
        if sloppy:
            return rng.choice([label.upper(), str(len(options) + 1), "I pass."])
        return number if rng.random() < 0.5 else label

    return ask


def play(game: rulelang.Game, players: int, seed: int, model: Model, quiet: bool = False) -> rulelang.State:
    """One game, every seat played by ``model`` through prompts."""
    state = game.new_game(players=players, seed=seed)
    refused = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None and seat >= 0     # sample mode: chance is settled inside apply
        conversation = [text.prompt(state, seat).text]
        for _ in range(TRIES):
            reply = model(conversation)
            try:
                move = text.parse_move(state, reply, seat)
                break
            except text.MoveRefused as e:
                refused += 1
                if not quiet:
                    print(terminal(f"P{seat} replied {reply!r}: refused ({e.reason})"))
                conversation.append(f"Your reply was refused: {e}. Reply with one move.")
        else:
            raise SystemExit(f"P{seat} gave no legal move in {TRIES} tries")
        if not quiet:
            print(terminal(f"P{seat}: {move.label}"))
        state.apply(move, player=seat)
    result = state.result()
    print(terminal(f"{game.title}: {result.ending}; scores {list(result.scores)}, winners "
                   f"{['P%d' % s for s in result.winners]}; {len(state.history)} moves, {refused} replies refused"))
    return state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="?", default=str(ROOT / "examples" / "kuhn_poker.rules"))
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    try:
        game = rulelang.load(args.rules)
    except (OSError, rulelang.Error) as e:
        ap.error(str(e).splitlines()[0])
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        ap.error(f"{game.title} is for {game.players_text}")
    play(game, players, args.seed, scripted_model(args.seed), args.quiet)


if __name__ == "__main__":
    main()
