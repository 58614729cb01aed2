"""``python -m rulelang.syntax``: write the fast path's tables
(``rulelang.tables.json``) again from the grammar, after a change to
``rulelang.lark`` (see ``tables``)."""

from __future__ import annotations

import sys

from .tables import GRAMMAR_PATH, TABLES_PATH, build, dumps, lark_parser


def main() -> int:
    grammar = GRAMMAR_PATH.read_bytes()
    text = dumps(build(lark_parser(), grammar))
    TABLES_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {TABLES_PATH} ({len(text)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
