"""Hand-written twins of the small example games: each game written the
obvious way in plain Python (a loop, a list, ``random.Random``), each
decision picked uniformly at random as the engine's random playouts do.
``benchmarks/small_games.py`` times them against the engine.

Each module has ``playout(seed, players) -> scores`` (a list, one score a
seat, as the engine's ``Result.scores``), and makes each decision the engine
would offer as one ``rng.choice`` over the legal options, and nothing else
with ``choice``: chance uses ``randint``, ``randrange``, ``sample``.  A
``choose one`` with a single alternative is still a decision in the engine
(a ``choice`` of one here); a ``choose a number`` whose range holds one
number is not (no ``choice``).  ``small_games.py`` counts the calls of
``choice`` to give the twin's decisions per game beside the engine's.
"""
