"""Stage 1: rule file text → IR (parse with Lark, transform to attrs nodes).

    parse      ``parse``, the entry point: the limits, the Lark parse, its
               errors as ``RulesetSyntaxError``; ``made_here``; ``parser``
    transform  the parse tree → IR nodes, with positions
    messages   the words of a syntax error (what the parser expected)
"""

from .parse import made_here, parse, parser

__all__ = ["made_here", "parse", "parser"]
