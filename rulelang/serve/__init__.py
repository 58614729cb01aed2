"""``rulelang serve``: a multiplayer web table for any ruleset.

The server is the only authority: it holds every game (in SQLite, as
replays, ``store``), hands each seat a secret token when it is joined, and
answers each request with what that seat may see (``tables``).  An
HTTP/JSON API (``app``, described in ``openapi``) serves the page
(``pages``) and any other client; a WebSocket tells each client when its
game has changed.  A thinking bot (``mcts``) works out its moves in worker
processes (``thinking``).  Needs the ``serve`` extra (Starlette, uvicorn).
docs/serve.md says how to run it and what it guarantees.
"""

from __future__ import annotations

import sys
from typing import List

from ..show import terminal


def run(paths: List[str], host: str, port: int, db: str) -> int:
    """Serve the rule files ``paths`` until interrupted; 2 for bad input
    (said in one line), 0 after a clean stop."""
    err = sys.stderr
    try:
        import uvicorn

        from .app import make_app
        from .store import Store
        from .tables import Hall, load_rulesets
    except ImportError as e:
        print(f"rulelang serve needs the 'serve' extra (pip install 'rulelang[serve]'): {e}",
              file=err)
        return 2
    from ..errors import RulesetError
    try:
        rulesets = load_rulesets(paths)
    except RulesetError as e:
        print(e.format(), file=err)
        return 2
    except OSError as e:
        print(f"{e.filename}: {e.strerror}", file=err)
        return 2
    try:
        store = Store(db)
    except Exception as e:
        print(f"{db}: cannot open the games' database: {e}", file=err)
        return 2
    hall = Hall(rulesets, store)
    for game_id, why in hall.unavailable.items():
        print(terminal(f"game {game_id} is kept but not served: {why}"), file=err)
    print(f"rulelang serve: {len(rulesets)} ruleset(s), {len(hall.tables)} game(s) from {db}; "
          f"http://{host}:{port}/", file=err)
    try:
        uvicorn.run(make_app(hall), host=host, port=port, log_level="warning")
    finally:
        hall.thinkers.close()       # (done already when the server stopped cleanly)
        store.close()
    return 0
