"""Golden playthroughs (``tests/golden/``)."""

from __future__ import annotations

import random
from typing import Any, List

from ..engine import CHANCE, Game


def golden_log(game: Game, players: int, seed: int, chance: str = "sample") -> str:
    """A readable, fixed-seed playthrough: every move, every log entry and
    the result.  Random players pick moves with ``random.Random(seed)``.
    Used by the golden tests (``tests/golden/``)."""
    st = game.new_game(players=players, seed=seed, chance=chance)
    rng = random.Random(seed)
    lines = [f"# {game.title}: {players} players, seed {seed}, chance {chance}; moves picked by "
             f"random.Random({seed})"]
    shown = 0
    moves = 0
    while True:
        log = st.log
        for e in log[shown:]:
            who = "-" if e.player is None else f"P{e.player}"
            lines.append(f"  [{e.round}] {who} {e.kind}: {e.text}")
        shown = len(log)
        if st.is_over:
            break
        # (``Any``: ``Move`` declares no types for its slots.)
        legal: List[Any] = st.legal_moves()
        if st.current_player == CHANCE:
            move = rng.choices(legal, weights=[float(m.probability) for m in legal])[0]
            who = "chance"
        else:
            move = rng.choice(legal)
            who = f"P{st.current_player}"
        lines.append(f"> {who}: {move.label}   (of {len(legal)})")
        st.apply(move)
        moves += 1
    r = st.result()
    lines.append(f"= {moves} moves; ending {r.ending!r}; scores {list(r.scores)}; "
                 f"winners {list(r.winners)}")
    return "\n".join(lines) + "\n"
