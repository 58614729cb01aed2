"""The words of a syntax error: what the parser expected, said as a designer
knows it ("a name", "'{'", "a value ...") rather than as Lark's terminal
names, and the message for input nested too deep.

It exists apart from ``parse`` so that the wording of every syntax error
is in one place, and apart from the transformer, which builds IR and says
only what is wrong with a value it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    import lark

# Friendlier names for terminals in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "SIGNED_INT": "a number",
    "STRING": 'a "quoted text"', "DIE": "a die such as d6",
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'",
    "COLON": "':'", "EQ": "'='", "COUNT": "a count such as x10", "COUNT_OF": "a count such as x(wolves)",
    "CMP": "a comparison such as <=", "ASSIGN_OP": "'+=' or '-='",
    "COMMA": "','", "DOT": "'.'", "EXTREME": "highest or lowest",
    "OTHER": "other", "PLUS": "+", "MINUS": "-", "MUL_OP": "* / or %", "$END": "the end of the file",
}


_VALUE_START = {"NAME", "INT", "LPAR", "ROLL", "MINUS", "THIS", "SIZE", "ROUND", "YES", "NO",
                "NONE", "SUM", "PASSED", "FAILED", "MARGIN", "NOT", "ANY", "EXTREME", "COUNT"}


def _word(term: str, grammar: "lark.Lark") -> str:
    if term in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[term]
    try:
        pattern = grammar.get_terminal(term).pattern
        if pattern.type == "str":
            return repr(pattern.value)
    except KeyError:
        pass
    return term.lower()


def expected(terms: Iterable[str], grammar: "lark.Lark") -> str:
    """The terminals ``terms`` (that the parser ``grammar`` would have
    taken) in words, for "expected ..."."""
    names = set(terms)
    if {"NAME", "INT", "LPAR", "ROLL"} <= names:
        # Anywhere a value may start: say so instead of listing 20 words.
        others = {n for n in names - _VALUE_START
                  if _word(n, grammar) not in ("'count'", "'any'", "'no'")}
        rest = expected(others, grammar) if others else ""
        return "a value (a number, a name, 'roll d6', 'count of ...', ...)" + (f", or {rest}" if rest else "")
    found = set()
    for n in names:
        w = _word(n, grammar)
        if not w.startswith("__"):
            found.add(w)
    words = sorted(found, key=lambda w: (not w.startswith("'"), w))
    if len(words) > 12:
        words = words[:12] + ["…"]
    return ", ".join(words)


def nesting_message(limit: int) -> str:
    return (f"this is nested more than {limit} levels deep (brackets, blocks, "
            f"'if … else if', and each operator of a chain like a + b + c count "
            f"as a level); split it up, e.g. with 'let' or a rule")


def shorten(s: str, most: int = 40) -> str:
    return s if len(s) <= most else s[:most] + "…"
