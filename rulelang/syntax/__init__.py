"""Stage 1: rule file text → IR (parse with Lark, transform to attrs nodes)."""

from .parse import made_here, parse, parser

__all__ = ["made_here", "parse", "parser"]
