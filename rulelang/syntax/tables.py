"""The tables of the parser's fast path (``lalr``), made from the Lark
parser of ``rulelang.lark`` and shipped beside it as plain JSON
(``rulelang.tables.json``), so that a process reads a rule file without
building the grammar or importing Lark.

    python -m rulelang.syntax        # after a change to rulelang.lark

writes the file again (``tests/test_syntax_tables.py`` fails while it is
out of date; until then the parser builds the tables from the grammar in
each process, which is correct but slow).  The file is data, never code:
the LALR table (what to do in each state on each terminal), each rule's
shape (how Lark would build its tree: which children it keeps, which it
inlines, whether a single child stands for it) and, for each state, the
regular expressions of the terminals Lark's contextual lexer would try
there, in Lark's order, with the keywords it would pick out of a name.

It exists apart from ``lalr`` so that the reader of a rule file never
imports Lark, and the one place that knows Lark's internals is here.
"""

from __future__ import annotations

import collections
import functools
import importlib
import json
import os
import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

if TYPE_CHECKING:
    from pathlib import Path

#: The version of the layout of the file (``lalr.FORMAT`` reads only its own).
FORMAT = 1

#: The grammar and its tables, beside this module (as text: a load of a
#: rule file does not import ``pathlib``; ``GRAMMAR_PATH`` and
#: ``TABLES_PATH`` are the same as ``Path`` objects).
GRAMMAR_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rulelang.lark")
TABLES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rulelang.tables.json")


def __getattr__(name: str) -> "Path":
    if name in ("GRAMMAR_PATH", "TABLES_PATH"):
        from pathlib import Path
        return Path(GRAMMAR_FILE if name == "GRAMMAR_PATH" else TABLES_FILE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _small_sha256() -> Any:
    """hashlib's sha256, from the small module that has it when there is
    one: ``hashlib`` loads OpenSSL, a tenth of the time a rule file's first
    load took, and nothing else a load does needs it."""
    for name in ("_sha2", "_sha256"):
        try:
            return importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            pass
    import hashlib
    return hashlib.sha256


#: SHA-256 (``sha256(data).hexdigest()``), as hashlib's: imported with the
#: package, so that nothing is imported when a game first asks for it
#: (``Game.fingerprint``).
sha256: Any = _small_sha256()


def grammar_digest(text: bytes) -> str:
    """The SHA-256 of the grammar, that the tables name the grammar by."""
    return sha256(text).hexdigest()  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=None)
def lark_parser() -> Any:
    """The Lark parser of the grammar (``rulelang.syntax.parser``), built
    once in a process: about a third of a second."""
    import lark
    return lark.Lark(
        _read(GRAMMAR_FILE),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
    )


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _dispatch(ids: List[int], terminals: List[List[Any]]) -> List[Any]:
    """A scanner as [by first character, the rest]: for each character a
    match may start with, the terminals (of ``ids``, in their order) that
    may match there, as [[characters, [terminal, ...]], ...]; and the
    terminals whose first characters are not known (tried everywhere, in
    their place among the others).  Trying only those at a character finds
    what the scanner's one alternation of all its terminals finds."""
    firsts = [first_characters(terminals[i][1]) for i in ids]
    wild = [i for i, f in zip(ids, firsts) if f is None]
    chars = sorted(set().union(*(f for f in firsts if f is not None)))
    groups: Dict[Tuple[int, ...], List[str]] = {}
    for c in chars:
        which = tuple(i for i, f in zip(ids, firsts) if f is None or c in f)
        groups.setdefault(which, []).append(c)
    by_char = sorted(["".join(cs), list(which)] for which, cs in groups.items())
    return [by_char, wild]


def _skipped(ids: List[int], terminals: List[List[Any]], ignore: Any) -> str:
    """The characters at which a scanner would read only what it ignores
    (white space, comments), one token after another, until the next
    character it does not ignore: "" unless each ignored terminal is the
    one the scanner tries at each of its first characters, and no two of
    them start alike.  There the parser skips the run in one match of
    ``skip_pattern``."""
    ignored = [i for i in ids if terminals[i][0] in ignore]
    if {terminals[i][0] for i in ignored} != set(ignore):
        return ""
    firsts = [first_characters(terminals[i][1]) for i in ids]
    out = ""
    for i in ignored:
        mine = firsts[ids.index(i)]
        if mine is None or out and set(out) & mine:
            return ""
        if any(f is None or (f & mine and j != i) for j, f in zip(ids, firsts)):
            return ""
        out += "".join(sorted(mine))
    return out


def skip_pattern(terminals: List[List[Any]], ignore: Any) -> str:
    """One match of what a scanner ignores, however many tokens it is."""
    parts = sorted({t[1] for t in terminals if t[0] in ignore})
    return "(?:" + "|".join(f"(?:{p})" for p in parts) + ")+"


def first_characters(pattern: str) -> Optional[Set[str]]:
    """The characters a match of ``pattern`` may start with, or None when
    that is not known (a class like ``\\w``, a negated set, any flag but
    none, a match that may be empty)."""
    try:
        sre_parse: Any = importlib.import_module("re._parser")
    except ImportError:     # pragma: no cover - Python 3.10
        sre_parse = importlib.import_module("sre_parse")
    parsed = sre_parse.parse(pattern)
    if parsed.state.flags & ~(re.UNICODE | re.U):
        return None
    found, may_be_empty = _first(list(parsed))
    return None if found is None or may_be_empty else found


def _first(items: List[Any]) -> Tuple[Optional[Set[str]], bool]:
    """(first characters or None, whether it may match nothing) of a
    sequence of parsed items."""
    out: Set[str] = set()
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            found: Optional[Set[str]] = {chr(arg)}
            empty = False
        elif name == "IN":
            found, empty = set(), False
            for kind, value in arg:
                if str(kind) == "LITERAL":
                    found.add(chr(value))
                elif str(kind) == "RANGE" and value[1] - value[0] < 512:
                    found.update(chr(c) for c in range(value[0], value[1] + 1))
                else:
                    found = None
                    break
        elif name == "BRANCH":
            found, empty = set(), False
            for branch in arg[1]:
                f, e = _first(list(branch))
                if f is None:
                    found = None
                    break
                found |= f
                empty = empty or e
        elif name == "SUBPATTERN":
            if arg[1] or arg[2]:            # flags
                return None, False
            found, empty = _first(list(arg[3]))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            found, empty = _first(list(arg[2]))
            empty = empty or arg[0] == 0
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            found, empty = set(), True      # (a superset: the assertion is left out)
        elif name == "ATOMIC_GROUP":
            found, empty = _first(list(arg))
        else:
            return None, False
        if found is None:
            return None, False
        out |= found
        if not empty:
            return out, False
    return out, True


def build(parser: Any, grammar: bytes) -> Dict[str, Any]:
    """The tables of the Lark LALR parser ``parser`` (built from the
    grammar text ``grammar``), as JSON-able data.  Raises ``ValueError``
    when the grammar uses what the fast path does not do as Lark does
    (then the parser keeps to Lark)."""
    import lark
    from lark.lexer import UnlessCallback
    from lark.parsers.lalr_analysis import Shift

    opts = parser.options
    if (opts.parser, opts.lexer) != ("lalr", "contextual") or opts.maybe_placeholders or \
            opts.propagate_positions is not True or opts.postlex is not None or \
            opts.lexer_callbacks or opts.transformer is not None or opts.regex or \
            opts.g_regex_flags or opts.use_bytes or opts.tree_class is not None:
        raise ValueError("the fast path reads only a plain LALR parser with positions")
    frontend = parser.parser
    table = frontend.parser.parser.parse_table
    (start_name,) = opts.start
    start, end = table.start_states[start_name], table.end_states[start_name]
    n = len(table.states)
    if sorted(table.states) != list(range(n)):
        raise ValueError("the states are not numbered 0..n-1")

    rules = list(parser.rules)
    index = {rule: i for i, rule in enumerate(rules)}
    shapes: List[List[Any]] = []
    keep: Set[str] = set()
    for rule in rules:
        if rule.options.keep_all_tokens or rule.options.template_source:
            raise ValueError(f"rule {rule}: '!' and templates are not read")
        origin = rule.origin.name
        inline = origin.startswith("_")
        expand1 = bool(rule.options.expand1 and not rule.alias)
        if inline and expand1:
            raise ValueError(f"rule {rule}: an inlined rule that may stand for its child")
        include: List[Tuple[int, bool]] = []
        for i, sym in enumerate(rule.expansion):
            if sym.is_term and sym.filter_out:
                continue
            if sym.is_term:
                keep.add(sym.name)
            include.append((i, not sym.is_term and sym.name.startswith("_")))
        plain = len(include) == len(rule.expansion) and not any(x for _, x in include)
        name = rule.alias or origin
        shapes.append([str(origin), len(rule.expansion), str(name), expand1, inline,
                       None if plain else [[i, x] for i, x in include]])

    # Only the start may match nothing (an empty file): then every tree
    # that is a child has a position, as the fast path assumes.
    nullable: Set[str] = set()
    grew = True
    while grew:
        grew = False
        for rule in rules:
            o = rule.origin.name
            if o not in nullable and all(not s.is_term and s.name in nullable for s in rule.expansion):
                nullable.add(o)
                grew = True
    if nullable - {start_name}:
        raise ValueError(f"rules that may match nothing: {sorted(nullable - {start_name})}")

    # Lark numbers its states differently in each process: number them
    # in the order a walk from the start meets them, so that the file is
    # the same each time it is made.
    order: List[int] = [start]
    number = {start: 0}
    for s in order:
        for sym in sorted(table.states[s], key=str):
            action, arg = table.states[s][sym]
            if action is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    if len(order) != n:
        raise ValueError("states the start does not reach")
    start, end = number[start], number[end]

    rows: List[Dict[str, int]] = []
    defaults: List[Optional[int]] = []
    for old in order:
        row: Dict[str, int] = {}
        reduces: Dict[str, int] = {}
        for sym, (action, arg) in sorted(table.states[old].items(), key=lambda kv: str(kv[0])):
            if action is Shift:
                row[str(sym)] = number[arg]
            else:
                reduces[str(sym)] = index[arg]
        # A state's most common reduction is its default (taken on any
        # terminal it has no action for): a valid text is read exactly as
        # Lark reads it, and an error is found a little later, whereupon
        # the text is read again by Lark, which reports it.
        counts = collections.Counter(reduces.values())
        default = min(counts, key=lambda r: (-counts[r], r)) if counts else None
        for sym, r in reduces.items():
            if r != default:
                row[sym] = -1 - r
        rows.append(row)
        defaults.append(default if default is None else -1 - default)

    lexer = frontend.lexer
    if not isinstance(lexer, lark.lexer.ContextualLexer):
        raise ValueError("the fast path reads only Lark's contextual lexer")
    terminals: List[List[Any]] = []     # [name, regular expression, the text or None]
    terminal_ids: Dict[Tuple[str, str], int] = {}
    scanners: List[List[Any]] = []
    known: Dict[str, int] = {}
    lexer_of: List[int] = []
    newline: Set[str] = set()
    ignore: Set[str] = set()
    for old in order:
        basic: Any = lexer.lexers[old]
        scanner = basic.scanner        # (built on first use)
        ids = []
        for t in scanner.terminals:    # in the order Lark's scanner tries them
            named = (t.name, t.pattern.to_regexp())
            if named not in terminal_ids:
                terminal_ids[named] = len(terminals)
                plain = t.pattern.type == "str" and not t.pattern.flags
                terminals.append([t.name, named[1], t.pattern.value if plain else None])
            ids.append(terminal_ids[named])
        unless: Dict[str, Dict[str, str]] = {}
        for term, callback in sorted(basic.callback.items()):
            if not isinstance(callback, UnlessCallback):
                raise ValueError(f"a lexer callback on {term}")
            words: Dict[str, str] = {}
            for t in callback.scanner.terminals:
                if t.pattern.type != "str" or t.pattern.flags:
                    raise ValueError(f"keyword {t.name} is not a plain string")
                words.setdefault(t.pattern.value, t.name)
            unless[term] = words
        entry = _dispatch(ids, terminals) + [unless, _skipped(ids, terminals, basic.ignore_types)]
        key = json.dumps(entry, sort_keys=True)
        if key not in known:
            known[key] = len(scanners)
            scanners.append(entry)
        lexer_of.append(known[key])
        newline |= set(basic.newline_types)
        ignore |= set(basic.ignore_types)
    return {
        "format": FORMAT,
        "grammar": grammar_digest(grammar),
        "made_by": f"lark {lark.__version__}",
        "start": start, "end": end,
        "rules": shapes,
        "keep": sorted(keep), "newline": sorted(newline), "ignore": sorted(ignore),
        "lexer_of": lexer_of,
        "terminals": terminals,
        "skip": skip_pattern(terminals, ignore),
        "scanners": scanners,
        "defaults": defaults,
        "rows": rows,
    }


def dumps(data: Dict[str, Any]) -> str:
    """The file's text: one line per rule, scanner and state, so that a
    change to the grammar reads as a diff."""
    out = ["{"]
    scalars = [k for k in data if not isinstance(data[k], list) or k in ("keep", "newline", "ignore")]
    for k in scalars:
        out.append(f"{json.dumps(k)}: {json.dumps(data[k], separators=(',', ':'))},")
    lists = [k for k in data if k not in scalars]
    for j, k in enumerate(lists):
        items = data[k]
        out.append(f"{json.dumps(k)}: [")
        for i, item in enumerate(items):
            comma = "," if i < len(items) - 1 else ""
            out.append(json.dumps(item, separators=(",", ":"), ensure_ascii=False) + comma)
        out.append("]" + ("," if j < len(lists) - 1 else ""))
    out.append("}")
    return "\n".join(out) + "\n"
