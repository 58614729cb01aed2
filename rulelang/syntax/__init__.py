"""Stage 1: rule file text → IR (parse with Lark's tables, transform to attrs nodes).

    parse      ``parse``, the entry point: the limits, the fast path, else
               Lark's parse and its errors as ``RulesetSyntaxError``;
               ``made_here``; ``parser`` (the Lark parser)
    lalr       the fast path: the text read with the tables Lark made for
               the grammar, the nodes built as it reads, without Lark
    tables     those tables, made from Lark's parser and shipped as
               ``rulelang.tables.json`` (``python -m rulelang.syntax``
               writes them again after a change to ``rulelang.lark``)
    transform  the parse tree → IR nodes, with positions
    places     tokens and places, as the parse-tree methods are given them
    messages   the words of a syntax error (what the parser expected)
    diagnose   syntax errors that teach: typical mistakes, a block left
               open, what was expected in words, every error of a file
    fmt        ``rulelang fmt``: the canonical layout (``format_source``)
"""

from .parse import made_here, parse, parser

__all__ = ["made_here", "parse", "parser"]
