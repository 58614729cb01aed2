"""A keyword's entry in the language reference (docs/language.md), for hover.

The reference is read from the source tree (an editable install, or a
checkout on ``sys.path``); where it is not there (an installed wheel), a
keyword's hover says only that it is a keyword.  Each ``###`` section is
filed under the keywords its heading names ("### draw, choose cards,
move"); a keyword no heading names is looked for in the sections' code.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..words import KEYWORDS

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "language.md"

#: The most lines of a section a hover shows.
MOST_LINES = 18


@functools.lru_cache(maxsize=None)
def sections() -> Tuple[Tuple[str, str], ...]:
    """(heading, text) of each ``###`` section of the reference; none when
    it cannot be read."""
    try:
        text = REFERENCE.read_text(encoding="utf-8")
    except OSError:
        return ()
    found: List[Tuple[str, str]] = []
    heading: Optional[str] = None
    body: List[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            if heading is not None:
                found.append((heading, "\n".join(body).strip()))
            heading = line.lstrip("#").strip() if line.startswith("### ") else None
            body = []
        elif heading is not None:
            body.append(line)
    if heading is not None:
        found.append((heading, "\n".join(body).strip()))
    return tuple(found)


def _heading_words(heading: str) -> List[str]:
    words = re.findall(r"[a-z/]+", heading.lower())
    return words + [w[:-1] for w in words if w.endswith("s")]


@functools.lru_cache(maxsize=None)
def _index() -> Dict[str, int]:
    """keyword -> its section: the first whose heading starts with it, else
    the first whose heading names it, else the first that shows it in code."""
    index: Dict[str, int] = {}
    found = sections()
    for i, (heading, _) in enumerate(found):
        words = _heading_words(heading)
        if words and words[0] in KEYWORDS:
            index.setdefault(words[0], i)
    for i, (heading, _) in enumerate(found):
        for w in _heading_words(heading):
            if w in KEYWORDS:
                index.setdefault(w, i)
    for i, (_, body) in enumerate(found):
        for code in re.findall(r"`([^`\n]+)`", body):
            for w in re.findall(r"[a-z]+", code):
                if w in KEYWORDS:
                    index.setdefault(w, i)
    return index


def entry(keyword: str) -> str:
    """Markdown for hovering over ``keyword``: its section of the reference,
    cut to ``MOST_LINES`` lines."""
    i = _index().get(keyword)
    if i is None:
        return f"`{keyword}`: a keyword of rulelang (docs/language.md)"
    heading, body = sections()[i]
    lines = body.splitlines()
    shown = "\n".join(lines[:MOST_LINES])
    if shown.count("```") % 2:
        shown += "\n```"
    more = "\n\n…(docs/language.md)" if len(lines) > MOST_LINES else ""
    return f"**{keyword}** — {heading}\n\n{shown}{more}"
