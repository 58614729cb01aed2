"""A designer's balance report: many games played by built-in players
(``rulelang.players``), tallied as counts that merge exactly
(``stats.Tally``), on one process, local workers or a Dask cluster
(``run``), and shown as text, JSON, HTML or PNG (``rulelang simulate``).

    from rulelang.balance import Setup, run, figures
    result = run(game, Setup(players=2, seats=("mcts:200", "random")), seed=0, games=100)
    print(figures(result.tally, ranked=True, scored=True, seats=("mcts:200", "random")))
"""

from .play import Setup, is_ranked, play_range
from .run import Run, run
from .stats import Tally, figures, wilson

__all__ = ["Run", "Setup", "Tally", "figures", "is_ranked", "play_range", "run", "wilson"]
