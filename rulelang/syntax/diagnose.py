"""Syntax errors that teach: what a designer probably meant, where the
mistake is, and every syntax error of a file, not only the first.

``report`` is called with the text Lark could not read and its first
error.  It words that error (``explain``): a table of typical mistakes
(``MISTAKES``, modelled on Lark's ``match_examples``, each with an example
the tests read) says what was probably meant (``==`` for ``=``, ``and``
for ``&&`` …); a block left open is reported at the ``{`` that opened it;
what the parser expected is said in words ("a statement", "a value"), not
listed token by token.  Then it reads on (``_recover``): the line of the
error is blanked (its braces kept) and the text read again, or, when that
cannot help, reading starts again at the next line that begins a
declaration in the first column; each new error after the last one is
reported, up to ``MOST``.

It exists apart from ``parse`` (which only reads) and ``messages`` (the
words for terminals) so that the guessing lives in one place, and is
only ever run on a text that does not parse: it costs nothing otherwise.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple, cast

import attrs

from ..errors import Diagnostic, source_line
from .messages import _word, shorten

if TYPE_CHECKING:
    import lark

#: The most syntax errors reported for one file.
MOST = 20


@attrs.frozen
class Context:
    """What is known where the parser stopped."""

    text: str
    line: int
    column: int
    found: str               # the text of the token (or the character) it stopped at
    kind: str                # its terminal ('$END' at the end, 'CHAR' for a character no token starts with)
    expected: FrozenSet[str]  # the terminals it would have taken

    @property
    def before(self) -> str:
        """The line up to the place of the error."""
        return source_line(self.text, self.line)[:self.column - 1]

    @property
    def after(self) -> str:
        """The line from the place of the error."""
        return source_line(self.text, self.line)[self.column - 1:]


@attrs.frozen
class Mistake:
    """A typical mistake: when it applies, what to say, and an example
    file (the tests check that the example gets this message)."""

    name: str
    applies: Callable[[Context], bool]
    message: str
    example: str
    #: The column to point at, when it is not where the parser stopped.
    column: Optional[Callable[[Context], int]] = None


def _is(found: str, *kinds: str) -> Callable[[Context], bool]:
    return lambda c: c.found in found.split() and (not kinds or bool(c.expected & set(kinds)))


_PHASE = 'game "G"\nplayers 2\nper player {{ pts 0 }}\nturn {{\n  phase p {{\n    {}\n  }}\n}}\n'

MISTAKES: Tuple[Mistake, ...] = (
    Mistake("elif",
            lambda c: re.match(r"\s*(elif|elsif|elseif)\b", source_line(c.text, c.line)) is not None,
            "write 'else if' ('elif' is not a word of the language): if a { … } else if b { … }",
            _PHASE.format("if pts > 1 { pts += 1 }\n    elif pts > 0 { pts += 2 }"),
            lambda c: len(source_line(c.text, c.line)) - len(source_line(c.text, c.line).lstrip()) + 1),
    Mistake("= to compare",
            lambda c: c.found == "=" and "CMP" in c.expected,
            "'=' sets a value; to compare two values write '==' (as in: if r == 1)",
            _PHASE.format("if pts = 1 { pts += 1 }")),
    Mistake("line that starts with -",
            lambda c: c.kind == "LINE_MINUS",
            "a line that starts with '-' starts a new value (as a score line does), and none "
            "may start here; to go on with the line above, end that line with the '-' instead",
            _PHASE.format("pts = 3\n      - 1")),
    Mistake("== to set",
            lambda c: c.found == "==" and bool(c.expected & {"EQ", "ASSIGN_OP"})
            or c.found == "=" and re.search(r"(^|[^-+!<>=])=\s*$", c.before) is not None,
            "'==' compares two values; to set a value write '=' (as in: pts = 1)",
            _PHASE.format("pts == 1"),
            lambda c: c.column - 1 if c.found == "=" else c.column),
    Mistake("&&",
            lambda c: c.after.startswith("&"),
            "write 'and' to join two conditions (as in: if a > 1 and b > 1), not '&&'",
            _PHASE.format("if pts > 1 && pts < 5 { pts += 1 }")),
    Mistake("||",
            lambda c: c.after.startswith("|"),
            "write 'or' for either of two conditions (as in: if a > 1 or b > 1), not '||'",
            _PHASE.format("if pts > 1 || pts < 5 { pts += 1 }")),
    Mistake("! for not",
            lambda c: c.after.startswith("!") and not c.after.startswith("!="),
            "write 'not' to turn a condition around (as in: if not done), not '!'",
            _PHASE.format("if !pts { pts += 1 }")),
    Mistake("++",
            lambda c: c.after.startswith("++") or c.after.startswith("--") and "ASSIGN_OP" in c.expected,
            "write '+= 1' (or '-= 1') to add one (as in: pts += 1)",
            _PHASE.format("pts++")),
    Mistake("single quotes",
            lambda c: c.after.startswith("'"),
            "text goes between double quotes: \"like this\"",
            'game \'Coin\'\nplayers 2\n'),
    Mistake("players range",
            lambda c: re.match(r"\s*players\b", c.before) is not None and bool(c.expected & {"__ANON_0", "NAME", "INT"})
            or re.match(r"\s*players\s+\S+\s*$", c.before) is not None and c.found in ("to", "-", ",", "-4")
            or re.match(r"\s*players\s+\d+\s*$", c.before) is not None and re.match(r"-\d", c.found) is not None,
            "write the number of players as 'players 2' or a range as 'players 2..4'",
            'game "G"\nplayers 2 to 4\n'),
    Mistake("per what",
            lambda c: c.found == "per" or re.match(r"per\b", c.after) is not None and c.kind == "CHAR",
            "a block of stats starts 'per player {', 'per turn {' or 'global {'",
            'game "G"\nplayers 2\nper players { pts 0 }\n'),
    Mistake("then in a statement",
            lambda c: c.found == "then" and bool(c.expected & {"LBRACE", "COLON"}),
            "an 'if' statement takes a block or ':' (if a { … } or if a: …); "
            "'then' is for a value (if a then 1 else 2)",
            _PHASE.format("if pts > 1 then pts += 1")),
)


@functools.lru_cache(maxsize=None)
def _starts(grammar: "lark.Lark", prefix: str) -> FrozenSet[str]:
    """The terminals the parser takes after ``prefix``: what may start a
    declaration (''), a statement ('rule x {'), a value ('const x =')."""
    run = grammar.parse_interactive(prefix)
    run.exhaust_lexer()
    choices: Dict[str, object] = run.choices()  # type: ignore[no-untyped-call]
    return frozenset(k for k in choices if k.isupper() or k.startswith("_") and k[1:].isupper()) - {"$END"}


#: Terminals that continue a value already read (an operator, a call …).
_GOES_ON = frozenset({"CMP", "PLUS", "MINUS", "MUL_OP", "AND", "OR", "IS", "HAS", "DOT", "LPAR", "OF", "IN",
                      "LINE_MINUS"})
#: Separators that may always be left out.
_OPTIONAL = frozenset({"COMMA", "SEMICOLON"})


def in_words(expected: Sequence[str] | FrozenSet[str], grammar: "lark.Lark") -> str:
    """What the parser expected, in words: "a statement or '}'", not a
    list of twenty keywords."""
    rest: Set[str] = set(expected)
    parts: List[str] = []
    for prefix, kind in (("", "a declaration (game, players, per player {, rule, turn, score …)"),
                          ("rule x {", "a statement"),
                          ("const x =", "a value")):
        starts = _starts(grammar, prefix) - {"RBRACE"}
        if len(rest & starts) >= 0.8 * len(starts):
            parts.append(kind)
            rest -= starts
    if rest & _GOES_ON and len(rest & _GOES_ON) >= 3:
        parts.append("an operator (+, ==, and …)")
        rest -= _GOES_ON
    if parts:
        rest -= _OPTIONAL
    if parts:
        rest.discard("$END")
    words = sorted({_word(t, grammar) for t in rest if not _word(t, grammar).startswith("_")},
                   key=lambda w: (not w.startswith("'"), w))
    if len(words) > 6:
        words = words[:6] + ["…"]
    parts += words
    if not parts:
        return "something else"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


# ------------------------------------------------------------------ braces

_BRACE_SCAN = re.compile(r'"[^"\n]*"|#[^\n]*|[{}]')


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _braces(text: str) -> List[Tuple[str, int, int, int]]:
    """Each brace outside quotes and comments: (it, offset, line, column)."""
    found = []
    line, line_start = 1, 0
    last = 0
    for m in _BRACE_SCAN.finditer(text):
        line += text.count("\n", last, m.start())
        if line > 1:
            line_start = text.rfind("\n", 0, m.start()) + 1
        last = m.start()
        if m.group() in "{}":
            found.append((m.group(), m.start(), line, m.start() - line_start + 1))
    return found


def unclosed_brace(text: str, line: int, column: int) -> Optional[Tuple[int, int]]:
    """(line, column) of the '{' whose block was probably left open, when
    the parser stopped at ``line``:``column`` on the first word of a line
    (or at the end): the first '{' whose '}' is less indented than the
    line that opened it, else the innermost '{' still open if the line the
    parser stopped at is no more indented than the line that opened it."""
    lines = text.splitlines()
    stack: List[Tuple[int, int]] = []
    for ch, _, at_line, at_column in _braces(text):
        if (at_line, at_column) >= (line, column):
            break
        if ch == "{":
            stack.append((at_line, at_column))
            continue
        if not stack:
            return None
        opened = stack.pop()
        here = lines[at_line - 1]
        if here[:at_column - 1].strip() == "" and _indent(here) < _indent(lines[opened[0] - 1]):
            return opened
    if not stack:
        return None
    if line > len(lines):
        return stack[-1]
    inner = stack[-1]
    if _indent(lines[line - 1]) <= _indent(lines[inner[0] - 1]):
        return inner
    return None


def _first_on_line(text: str, line: int, column: int) -> bool:
    return source_line(text, line)[:column - 1].strip() == ""


# ------------------------------------------------------------------ one error

def _context(text: str, e: Exception, grammar: "lark.Lark") -> Context:
    import lark
    if isinstance(e, lark.UnexpectedCharacters):
        pos = cast(int, e.pos_in_stream)
        return Context(text, e.line, e.column, text[pos], "CHAR", frozenset(e.allowed or ()))
    if isinstance(e, lark.UnexpectedToken):
        tok = e.token
        expected = frozenset(getattr(e, "accepts", None) or e.expected)
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            return Context(text, len(lines) + 1, 1, "", "$END", expected)
        if tok.type == "LINE_MINUS":     # (at its '-', not at the line break before it)
            sign = str(tok)
            return Context(text, cast(int, tok.line) + sign.count("\n"), len(sign) - sign.rindex("\n") - 1,
                           "-", tok.type, expected)
        return Context(text, cast(int, tok.line), cast(int, tok.column), str(tok), tok.type, expected)
    assert isinstance(e, lark.UnexpectedEOF)
    lines = text.splitlines() or [""]
    return Context(text, len(lines) + 1, 1, "", "$END", frozenset(e.expected))


def explain(text: str, filename: str, e: Exception, grammar: "lark.Lark") -> Tuple[Diagnostic, Context, bool]:
    """The diagnostic for Lark's error ``e`` in ``text``, its context, and
    whether it is a block left open (then the diagnostic is at its '{')."""
    c = _context(text, e, grammar)
    if c.kind == "$END" or (c.kind != "RBRACE" and _first_on_line(text, c.line, c.column)):
        brace = unclosed_brace(text, c.line, c.column)
        if brace is not None:
            where = "the end of the file" if c.kind == "$END" else f"{shorten(c.found)!r} on line {c.line}"
            message = (f"this '{{' is never closed: add its '}}' (the parser reached {where} "
                       f"still inside this block)")
            return _diag(filename, text, brace[0], brace[1], message), c, True
    for m in MISTAKES:
        if m.applies(c):
            line, column = _place(text, c)
            return _diag(filename, text, line, m.column(c) if m.column else column, m.message), c, False
    wanted = in_words(c.expected, grammar)
    if c.kind == "$END":
        message = f"the file ends too early; expected {wanted}"
    elif c.kind == "CHAR":
        message = f"unexpected character {c.found!r}; expected {wanted}"
    elif c.kind == "RBRACE" and unclosed_brace(text, c.line, c.column) is None and _extra_close(text, c):
        message = "this '}' closes nothing: there is one '}' too many (or a '{' missing before it)"
    else:
        message = f"unexpected {shorten(c.found)!r}; expected {wanted}"
    return _diag(filename, text, *_place(text, c), message), c, False


def _extra_close(text: str, c: Context) -> bool:
    depth = 0
    for ch, _, line, column in _braces(text):
        if (line, column) > (c.line, c.column):
            break
        depth += 1 if ch == "{" else -1
    return depth < 0


def _place(text: str, c: Context) -> Tuple[int, int]:
    if c.kind == "$END":
        lines = text.splitlines() or [""]
        return len(lines), len(lines[-1]) + 1
    return c.line, c.column


def _diag(filename: str, text: str, line: int, column: int, message: str) -> Diagnostic:
    return Diagnostic(filename, line, column, message, source_line(text, line))


# ------------------------------------------------------------------ many errors

#: A line that starts a declaration in the first column.
_DECLARATION = re.compile(
    r"(game|players|per|global|track|const|param|actor|deck|pile|pieces|board|table|test|rule|option|setup"
    r"|turn|whenever|on|reroll|end|score|winner)\b")


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with ``start:end`` turned to spaces (line breaks kept)."""
    return text[:start] + _NOT_A_BREAK.sub(" ", text[start:end]) + text[end:]


_NOT_A_BREAK = re.compile(r"[^\r\n]")


def _line_span(text: str, line: int) -> Tuple[int, int]:
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    end = text.find("\n", start)
    return start, len(text) if end < 0 else end


def _next_declaration(text: str, after_line: int) -> Optional[int]:
    """The offset of the first line after ``after_line`` that starts a
    declaration in the first column."""
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        if number > after_line and _DECLARATION.match(line):
            return offset
        offset += len(line) + 1
    return None


def _this_declaration(text: str, line: int) -> int:
    """The offset of the last line up to ``line`` that starts a
    declaration in the first column (0 if none does): the parser reads
    the lines from there as it read them in the whole text."""
    offset, found = 0, 0
    for number, here in enumerate(text.split("\n"), 1):
        if number > line:
            break
        if _DECLARATION.match(here):
            found = offset
        offset += len(here) + 1
    return found


def report(text: str, filename: str, first: Exception, grammar: "lark.Lark") -> List[Diagnostic]:
    """Every syntax error of ``text`` (up to ``MOST``), the first being
    Lark's ``first``, each worded by ``explain``."""
    import lark
    diag, c, left_open = explain(text, filename, first, grammar)
    found = [diag]
    work = text
    last = (c.line, c.column)
    by_line = not left_open     # read on after blanking the line (else: from the next declaration)
    budget = 4 * len(text) + 50_000       # characters read again, at most (each reading is Lark's)
    for _ in range(4 * MOST):
        if len(found) >= MOST or budget <= 0:
            break
        braces = [m.group() for m in _BRACE_SCAN.finditer(source_line(work, c.line)) if m.group() in "{}"]
        if by_line and c.kind not in ("RBRACE", "$END") and braces.count("{") == braces.count("}"):
            start, end = _line_span(work, c.line)
            begin = _this_declaration(work, c.line)
            work = _blank(_blank(work, start, end), 0, begin)   # (as many '{' as '}' go)
        else:
            resume = _next_declaration(work, c.line - (c.column == 1 and c.kind != "SKIPPED"))
            if resume is None:
                break
            begin = resume
            work = _blank(work, 0, begin)
        budget -= len(work) - begin
        try:
            grammar.parse(work)
            break
        except (lark.UnexpectedInput, lark.UnexpectedEOF) as e:
            diag, c, left_open = explain(work, filename, e, grammar)
        if c.line <= last[0] or (c.kind == "$END" and not left_open):
            # a knock-on of the blanking, not a mistake of its own: read
            # on from the next declaration after the last error, silently
            c = attrs.evolve(c, line=last[0], kind="SKIPPED")
            by_line = False
            continue
        found.append(attrs.evolve(diag, source_line=source_line(text, diag.line)))
        last = (c.line, c.column)
        by_line = not left_open
    return found
