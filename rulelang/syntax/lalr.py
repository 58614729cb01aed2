"""The parser's fast path: a rule file read with the tables Lark made for
the grammar (``tables``, shipped as ``rulelang.tables.json``), without
Lark, the parse tree built straight into IR.

It reads a text exactly as Lark's LALR parser with its contextual lexer
and ``propagate_positions`` would, and calls the parse-tree methods
(``transform.ToIR``) with the children and the place each of Lark's trees
would have, in the same order; it builds no tree.  It only ever reads a
text it can read: anything else (a character no terminal matches, a
token no action takes, a method that refuses what it is given, nesting or
a token past the limits) raises ``Unread``, and ``parse`` reads the text
again with Lark, which reports the problem as it always has.  So what a
file means, and every error and its place, come from one grammar.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from .places import NOWHERE, Meta, Token

#: The layout of the tables this module reads (``tables.FORMAT``).
FORMAT = 1

_new_str = str.__new__
_new_tuple = tuple.__new__


class Unread(Exception):
    """The fast path cannot read this text: Lark reads it instead."""


#: One rule: (the nonterminal it makes, how many symbols it takes, the
#: method that builds its node (None: none, Lark would make a ``Tree``),
#: whether a single child stands for it, whether its children go into
#: its parent's, which children it keeps (index, whether to splice an
#: inlined child's) or None for all, whether it is one symbol that
#: stands for it (``?expr: or_expr``)).
Rule = Tuple[str, int, Optional[Callable[..., Any]], bool, bool,
             Optional[Tuple[Tuple[int, bool], ...]], bool]


#: A terminal: (its name, its text if it is a plain one, else the
#: ``match(text, pos)`` of its regular expression).
Terminal = Tuple[str, Optional[str], Optional[Callable[..., Any]]]
#: A terminal as a scanner tries it: its ``Terminal``, then what the lexer
#: does with a token of it, worked out once rather than at every token:
#: the keywords the scanner picks out of it (text -> terminal) or None,
#: whether it may hold a line break, whether it is ignored.
Entry = Tuple[str, Optional[str], Optional[Callable[..., Any]], Optional[Dict[str, str]], bool, bool]
#: A scanner: for a character, the terminals that may match there, in
#: the order Lark's scanner tries them.
Scanner = Dict[str, Tuple[Entry, ...]]
#: What a scanner has at a character where a run of what it ignores starts.
SKIP: Tuple[Entry, ...] = (("", None, None, None, False, False),)


class Tables:
    """The tables, read once; each scanner made on first use (its
    terminals' expressions compiled once each)."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self.start: int = data["start"]
        self.end: int = data["end"]
        self.rows: List[Dict[str, int]] = data["rows"]
        self.defaults: List[Optional[int]] = data["defaults"]
        self.shapes: List[List[Any]] = data["rules"]
        self.keep = frozenset(data["keep"])
        self.newline = frozenset(data["newline"])
        self.ignore = frozenset(data["ignore"])
        self.lexer_of: List[int] = data["lexer_of"]
        self.terminals: List[List[Any]] = data["terminals"]
        self.scanners: List[List[Any]] = data["scanners"]
        self.matchers: List[Optional[Terminal]] = [None] * len(self.terminals)
        self.compiled: List[Optional[Scanner]] = [None] * len(self.scanners)
        self.wild: List[Tuple[Entry, ...]] = [()] * len(self.scanners)
        self.unless: List[Optional[Dict[str, Dict[str, str]]]] = [s[2] or None for s in self.scanners]
        self.skip: Callable[..., Any] = re.compile(data["skip"]).match
        self._rules: Dict[type, List[Rule]] = {}

    def _matcher(self, i: int) -> Terminal:
        found = self.matchers[i]
        if found is None:
            name, pattern, text = self.terminals[i]
            found = self.matchers[i] = (name, text, None if text is not None else re.compile(pattern).match)
        return found

    def _entry(self, k: int, i: int) -> Entry:
        name, text, match = self._matcher(i)
        words = self.unless[k]
        return (name, text, match, words.get(name) if words else None,
                name in self.newline, name in self.ignore)

    def scanner(self, k: int) -> Scanner:
        """Scanner ``k``: for each character, the terminals to try there."""
        found = self.compiled[k]
        if found is None:
            by_char, wild, _, skipped = self.scanners[k]
            found = {}
            for chars, ids in by_char:
                which = tuple(self._entry(k, i) for i in ids)
                for c in chars:
                    found[c] = which
            for c in skipped:
                found[c] = SKIP
            self.wild[k] = tuple(self._entry(k, i) for i in wild)
            self.compiled[k] = found
        return found

    def rules(self, builder: type) -> List[Rule]:
        """Each rule with the method of ``builder`` (a class) that builds its node."""
        found = self._rules.get(builder)
        if found is None:
            found = []
            for origin, size, name, expand1, inline, include in self.shapes:
                fn = None if inline else getattr(builder, name, None)
                found.append((origin, size, fn, expand1, inline,
                              None if include is None else tuple((i, x) for i, x in include),
                              size == 1 and expand1 and include is None))
            self._rules[builder] = found
        return found

def load(path: Union[str, "os.PathLike[str]"], digest: str) -> Optional[Tables]:
    """The tables in ``path`` if they were made from the grammar whose
    digest is ``digest`` (else None: they are out of date)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.loads(f.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("grammar") != digest:
        return None
    return Tables(data)


def parse(t: Tables, text: str, builder: Any, deepest_stack: int, longest: int) -> Any:
    """What ``builder``'s method for the start rule returns for ``text``,
    every node built by ``builder``'s methods as Lark's tree and a
    transformer would build it.  Raises ``Unread`` (or whatever a method
    raised) when the text is not one it reads."""
    rows, defaults, end_state = t.rows, t.defaults, t.end
    rules = t.rules(type(builder))
    lexer_of, compiled, wild = t.lexer_of, t.compiled, t.wild
    keep, skip = t.keep, t.skip
    states: List[int] = [t.start]
    values: List[Any] = []
    places: List[Any] = []
    pos, line, line_start, size_of_text = 0, 1, 0, len(text)
    state = t.start
    while True:
        # The next token, lexed as Lark's contextual lexer would in this state.
        while True:
            if pos >= size_of_text:
                kind, value = "$END", ""
                break
            k = lexer_of[state]
            found = (compiled[k] or t.scanner(k)).get(text[pos], wild[k])
            if found is SKIP:       # white space and comments, as one
                value = skip(text, pos).group()
                n = value.count("\n")
                if n:
                    line += n
                    line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                continue
            for kind, plain, match, words, multiline, ignored in found:  # noqa: B007
                if plain is not None:
                    if text.startswith(plain, pos):
                        value = plain
                        break
                else:
                    m = match(text, pos)    # type: ignore[misc]
                    if m is not None:
                        value = m.group()
                        break
            else:
                raise Unread("no terminal matches here")
            at_line, at_column = line, pos - line_start + 1
            if multiline:
                n = value.count("\n")
                if n:
                    line += n
                    line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if ignored:
                continue
            if words is not None:
                kind = words.get(value, kind)
            break
        if (len(states) > deepest_stack or len(value) > longest) and kind != "$END":
            raise Unread("past a limit")       # (Lark says which, and where)
        # Feed it: reduce as long as the state says, then shift it.
        while True:
            act = rows[state].get(kind, defaults[state])
            if act is None:
                raise Unread("no action")
            if act >= 0:
                if kind == "$END":
                    raise Unread("$END shifted")
                states.append(act)
                if kind in keep:
                    tok = _new_str(Token, value)
                    tok.type, tok.line, tok.column = kind, at_line, at_column
                    values.append(tok)
                else:
                    values.append(None)
                places.append(_new_tuple(Meta, (at_line, at_column)))
                state = act
                break
            origin, size, fn, expand1, inline, include, unit = rules[-1 - act]
            if unit:
                # One child that stands for the rule, in the same place:
                # only the state changes (most of the reductions).
                state = states[-1] = rows[states[-2]][origin]
                continue
            if size == 1:
                kids = [values.pop()]
                first = places.pop()
                states.pop()
            elif size:
                kids = values[-size:]
                first = places[-size]
                del values[-size:], places[-size:], states[-size:]
            else:
                kids = []
                first = NOWHERE
            if include is None:
                children = kids
            else:
                children = []
                for i, splice in include:
                    if splice:
                        if children:
                            children += kids[i]
                        else:       # (as Lark: the inlined child's own list)
                            children = kids[i]
                    else:
                        children.append(kids[i])
            if inline:
                node: Any = children
                where = first
            elif expand1 and len(children) == 1:
                node = children[0]
                where = _new_tuple(Meta, (node.line, node.column)) if type(node) is Token else first
            elif fn is None:
                raise Unread(f"no method for {origin}")
            else:
                node = fn(builder, first, children)
                where = first
            state = rows[states[-1]][origin]
            states.append(state)
            values.append(node)
            places.append(where)
            if kind == "$END" and state == end_state:
                return node
