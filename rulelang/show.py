"""A value in the ruleset's words, the one way every reader is shown it.

The terminal player, the text adapter (prompts for agents) and the web
table's pages all show values from ``State.view``; they say them as a
rule file writes them: ``yes``, ``no``, ``none``, a word, a number.  A
pool of dice (a tuple in a view) is said as the game's log says it
(``4, 5, 6``; ``no dice`` when empty), a list as its items (``nothing``
when empty), a mapping as ``{key: value, ...}``.  Callers differ only in
how they say ``none`` (the web table draws a dash); escaping for a page
stays with the page.

A ruleset is hostile input: its titles, card names, choices and endings
may hold escape sequences, bells, carriage returns or bidirectional
overrides.  ``terminal`` is the one step every command's report to a
terminal goes through (diagnostics use ``errors.printable`` itself).
"""

from __future__ import annotations

from typing import Any

from .errors import printable

#: How an empty pool of dice and an empty list are said.
NO_DICE = "no dice"
NOTHING = "nothing"


def word(value: Any, none: str = "none") -> str:
    """``value`` as a ruleset writes it (``none``: what to say for None)."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return none
    if isinstance(value, tuple):            # a pool of dice
        return ", ".join(word(v, none) for v in value) or NO_DICE
    if isinstance(value, list):
        return ", ".join(word(v, none) for v in value) or NOTHING
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {word(v, none)}" for k, v in value.items()) + "}"
    return str(value)


def terminal(text: str) -> str:
    """``text`` safe to print: tabs laid out as spaces, every other control
    character but the line break (and the bidirectional controls) written
    as an escape, so a ruleset's words cannot act on the terminal."""
    return printable(text.expandtabs())
