"""Hand-written twins of the small example games: each game written the
obvious way in plain Python (a loop, a list, ``random.Random``), each
decision picked uniformly at random as the engine's random playouts do.
``benchmarks/small_games.py`` times them against the engine."""
