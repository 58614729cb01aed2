"""Stage 1: rule file text → IR (parse with Lark, transform to attrs nodes)."""

from .parse import parse, parser

__all__ = ["parse", "parser"]
