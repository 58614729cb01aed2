"""``python -m rulelang.testing play|replay``: the child processes of
``check_ruleset`` (a job on stdin, the answer as JSON on stdout)."""

from __future__ import annotations

import json
import sys
from typing import List

from .conformance import _play_child
from .processes import _replay_child


def _main(argv: List[str]) -> int:
    if argv[:1] == ["replay"]:
        job = json.loads(sys.stdin.buffer.read())
        sys.stdout.write(json.dumps(_replay_child(job)))
        return 0
    if argv[:1] == ["play"]:
        job = json.loads(sys.stdin.buffer.read())
        sys.stdout.write(json.dumps(_play_child(job)))
        return 0
    print("usage: python -m rulelang.testing replay|play  (the child processes of "
          "check_ruleset; see 'rulelang conformance')", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
