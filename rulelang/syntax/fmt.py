"""``rulelang fmt``: one layout for every rule file.

``format_source`` rewrites a rule file's text in the canonical layout and
changes nothing else: the same tokens in the same order (so the same IR),
the line breaks where the writer put them, every comment where it was.

    * four spaces a level: a block's lines one level in from the line that
      opened it, its '}' at that line's level; a line inside '(' … ')' one
      level in from the line that opened it; a line that goes on with the
      statement (or declaration) above one level further in, or under the
      word of the line above it was written under (``_anchored``)
    * one space between words (two between items of a block written on one
      line: '{ Jack: rank 1  Queen: rank 2 }'), none before ',', ';', ':', ')' and '.', none
      after '(' and '.', none around '..' and '/' (east/west) or after a
      '-' that negates ('-lost'); '{ … }' on one line with a space inside
      ('{}' when empty); but words the writer lined up in columns on
      lines next to each other stay lined up, one space after the widest
      (``_aligned``)
    * 'per player {' and 'per turn {' written so (unless a comment is inside)
    * trailing comments two spaces after the code, lined up with those of
      the lines next to them (and with those the writer put at the same
      column a few lines of code further on); a comment on its own line at
      the level of the line after it (of the block it ends, before a '}')
    * no trailing spaces, at most one blank line in a row, none at the
      start or the end, one line break at the end

The layout depends on the tokens, the line breaks, the comments and
where the writer lined words up; formatting twice gives what formatting
once gave (``format_source`` makes sure of it).  The tokens are
Lark's (``parse.parser``), read with the state of the parser so that a
line that goes on with a statement is told from one that starts the next.
``format_source`` checks that the result reads to the same IR before it
returns it.

It exists apart from the parser so that the parser stays fast and
knows nothing about layout; the language server calls
``format_source`` for its formatting.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
import shutil
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO, Tuple, cast

import attrs

from ..errors import RulesetSyntaxError
from .parse import parse, parser

INDENT = "    "

#: Tokens that open and close a block or a bracket.
_OPENS_BLOCK = frozenset({"LBRACE", "_PER_PLAYER_OPEN", "_PER_TURN_OPEN"})
#: Tokens after which a '-' subtracts (they end a value); after any other, it negates.
_ENDS_VALUE = frozenset({"NAME", "INT", "SIGNED_INT", "STRING", "DIE", "RPAR", "YES", "NO", "NONE", "ROUND",
                         "PASSED", "FAILED", "MARGIN", "PLAYER", "PLAYERS", "COUNT", "COUNT_OF", "MORE"})
_NO_SPACE_BEFORE = frozenset({"COMMA", "SEMICOLON", "COLON", "RPAR", "DOT"})
_NO_SPACE_AFTER = frozenset({"LPAR", "DOT"})
#: Tokens that cannot end a line's statement: the next line goes on with it.
_GOES_ON = frozenset({"EQ", "ASSIGN_OP", "CMP", "PLUS", "MINUS", "MUL_OP", "AND", "OR", "NOT", "WHERE", "IS"})
_COMMENT_OR_BREAK = re.compile(r"#[^\n]*|\n")


@attrs.define
class _Token:
    kind: str
    text: str
    start: int          # offset in the source
    end: int
    depth: int = 0      # the size of the parser's stack after it was read
    on_list: bool = False   # whether it then sat on a list of items (Lark's '__…_star_…')
    on_part: bool = False   # whether it sat on a finished part (a tree), not a token
    under: str = ""         # that part's rule


@attrs.define
class _Line:
    level: int
    parts: List[str] = attrs.Factory(list)
    comment: str = ""
    blank_before: bool = False
    goes_on: bool = False       # it goes on with the statement of the line above
    #: The spaces between its words that may end a column (``_aligned``):
    #: (its place in ``parts``, the least it may be ("  " between items,
    #: else " "), the column where the next word stood in the text, whether
    #: the writer put more spaces there than that, or a tab).
    gaps: List[Tuple[int, str, int, bool]] = attrs.Factory(list)

    #: Its words: (the place in ``parts``, the column it stood at in the text).
    words: List[Tuple[int, int]] = attrs.Factory(list)
    #: For a line that goes on: the line above and the place of its word
    #: that this line's first word stood under, if one did (``_anchored``).
    anchor: Optional[Tuple["_Line", int]] = None
    #: Where its line starts when it is not its level's place (``_anchored``).
    indent: Optional[int] = None
    comment_at: int = -1        # the column its trailing comment stood at in the text

    def code(self) -> str:
        return (INDENT * self.level if self.indent is None else " " * self.indent) + "".join(self.parts)


def _tokens(text: str) -> List[_Token]:
    """Every token of ``text`` as Lark's parser reads it, with the size
    of the parser's stack once it was read, and whether it then sits on
    a list of items (the block's statements, the file's declarations …)."""
    run = parser().parse_interactive(text)
    found: List[_Token] = []
    for tok in run.iter_parse():
        if found:
            _read(found[-1], run.parser_state)
        first, end = cast(int, tok.start_pos), cast(int, tok.end_pos)
        start = end - 1 if tok.type == "LINE_MINUS" else first     # (its line break is layout)
        found.append(_Token(tok.type, str(tok)[start - first:], start, end))
    run.resume_parse()  # type: ignore[no-untyped-call]
    return found


def _read(tok: _Token, state: Any) -> None:
    tok.depth = len(state.state_stack)
    values = state.value_stack
    under = values[-2] if len(values) >= 2 else None
    tok.on_list = "_star_" in str(getattr(under, "data", ""))
    tok.on_part = hasattr(under, "data")
    tok.under = str(getattr(under, "data", ""))


def _spelt(tok: _Token) -> str:
    if tok.kind in ("_PER_PLAYER_OPEN", "_PER_TURN_OPEN") and "#" not in tok.text:
        return "per player {" if tok.kind == "_PER_PLAYER_OPEN" else "per turn {"
    return tok.text


def _space(before: _Token, after: _Token, before_before: Optional[_Token]) -> str:
    """The space between two tokens on one line."""
    a, b = before.kind, after.kind
    if b in _NO_SPACE_BEFORE or a in _NO_SPACE_AFTER or a == "LBRACE" and b == "RBRACE":
        return ""
    if before.text == ".." or after.text == ".." or a == "SLASH" or b == "SLASH":
        return ""
    if b == "LPAR" and a == "NAME" and (before_before is None or before_before.kind != "RULE"):
        return ""       # a call: f(x); but rule r (p: player)
    if a == "LINE_MINUS" or a == "MINUS" and (before_before is None or before_before.kind not in _ENDS_VALUE):
        return ""       # a negation: -lost
    return " "


def _is_closer(tok: _Token) -> bool:
    return tok.kind in ("RBRACE", "RPAR")


#: How many times a layout with columns is laid out again to find one
#: that stays (``format_source``).
TRIES = 3


def format_source(text: str, filename: str = "<text>") -> str:
    """``text`` in the canonical layout (see the module's docstring).
    Raises ``RulesetSyntaxError`` (as ``rulelang.load`` does) when the
    text does not parse; the result reads to the same IR as ``text``.

    Formatting twice gives what formatting once gave: the columns are
    worked out from where words stand, so a layout is laid out again until
    it stays (``TRIES`` times); one that does not (words that line up by
    chance, in a new way each time) is given without columns, which
    stays."""
    before = parse(text, filename)
    result, plain = _laid_out(text)
    if result != plain:     # (a layout without columns stays as it is)
        for _ in range(TRIES):
            again = _laid_out(result)[0]
            if again == result:
                break
            result = again
        else:
            result = plain
    after = parse(result, filename)
    if after != before:     # (a fault of this module: say so rather than change the meaning)
        raise RulesetSyntaxError.at(filename, 1, 1, "rulelang fmt could not lay this file out without "
                                    "changing what it means; it is left as it was")
    return result


def _laid_out(text: str) -> Tuple[str, str]:
    """``text`` laid out once: with the columns the writer lined up, and
    without any (from the one reading of its tokens)."""
    tokens = _tokens(text)
    column_at = _columns_of(text)
    lines: List[_Line] = []
    # Open brackets: (kind, the level of the line that opened it, the parser's stack inside it).
    opened: List[Tuple[str, int, int]] = []
    line: Optional[_Line] = None
    prev: Optional[_Token] = None
    prev2: Optional[_Token] = None
    end_of_last = 0
    line_start = 0      # (where the line being laid out starts in the text)
    code_line: Optional[_Line] = None       # the last line with code
    waiting: List[_Line] = []       # comment lines whose level is that of the next line
    statement = 0       # the level of the line the current statement started on
    for tok in [*tokens, None]:
        gap = text[end_of_last:tok.start if tok is not None else len(text)]
        breaks = 0          # line breaks since the last code or comment
        for m in _COMMENT_OR_BREAK.finditer(gap):
            if m.group() == "\n":
                breaks += 1
            elif breaks == 0 and line is not None:
                line.comment = m.group().rstrip()       # after the code on its line
                line.comment_at = column_at(end_of_last + m.start())
            else:
                waiting.append(_Line(0, [m.group().rstrip()], blank_before=breaks >= 2))
                lines.append(waiting[-1])
                line, breaks = None, 0
        if tok is None:
            break
        if opened and opened[-1][0] != "LPAR" and opened[-1][2] < 0 and not _is_closer(tok):
            # A block's items sit where its first one does: the parser's
            # stack then holds what opened it as one part ('global {' is
            # two tokens, 'per player {' one).
            opened[-1] = (opened[-1][0], opened[-1][1], tok.depth - 1)
        if line is None or breaks:
            level, goes_on = _level_of(tok, opened, prev)
            line = _Line(level, blank_before=breaks >= 2, goes_on=goes_on)
            if goes_on and code_line is not None:       # (under a word of the line above?)
                under = column_at(tok.start)
                line.anchor = next(((code_line, at) for at, c in code_line.words if c == under), None)
            lines.append(line)
            code_line = line
            line_start = tok.start
            if not goes_on and not (opened and opened[-1][0] == "LPAR"):
                statement = level       # (a line that starts a statement, or a block's '}')
            for comment in waiting:     # at the level of the line after them (inside a block they end)
                comment.level = _inner_level(opened) if _is_closer(tok) else level
            waiting.clear()
        else:
            assert prev is not None
            space = _space(prev, tok, prev2)
            if space and prev.kind not in ("SEMICOLON", "COMMA") and _starts_item(tok, opened, False):
                space = "  "        # two items on one line: { Jack: rank 1  Queen: rank 2 }
            if space:
                column = column_at(tok.start) - column_at(line_start)  # (from its first word)
                wide = len(gap.expandtabs(TAB)) > len(space) or "\t" in gap
                line.gaps.append((len(line.parts), space, column, wide))
            line.parts.append(space)
        line.words.append((len(line.parts), column_at(tok.start)))
        line.parts.append(_spelt(tok))
        if tok.kind == "LPAR":
            opened.append((tok.kind, line.level, tok.depth))
        elif tok.kind in _OPENS_BLOCK:      # (a block's level is its statement's, not its last line's)
            opened.append((tok.kind, statement, -tok.depth))     # (< 0: till its first item)
        elif _is_closer(tok) and opened:
            opened.pop()
        prev2, prev = prev, tok
        end_of_last = tok.end
    _aligned(lines)
    _anchored(lines)
    with_columns = _written(lines, bridged=True)
    for line in lines:
        line.indent = None
        for at, least, _, _ in line.gaps:
            line.parts[at] = least
    return with_columns, _written(lines, bridged=False)


#: Where the writer's tabs stop, for telling what they lined up: every
#: fourth column (a level's indent).
TAB = 4


def _columns_of(text: str) -> Callable[[int], int]:
    """fn(at) -> the column of offset ``at`` in ``text`` (from 0), tabs
    stopping every ``TAB`` columns: each line's start found once, so a
    file of one long line is not scanned again for every word."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    ends = starts[1:] + [len(text)]
    tabbed = {i for i, (a, b) in enumerate(zip(starts, ends)) if text.find("\t", a, b) >= 0}
    expanded: Dict[int, List[int]] = {}     # a line with tabs -> each offset's column

    def column(at: int) -> int:
        i = bisect.bisect_right(starts, at) - 1
        if i not in tabbed:
            return at - starts[i]
        cols = expanded.get(i)
        if cols is None:
            cols, c = [0], 0
            for ch in text[starts[i]:ends[i]]:
                c = (c // TAB + 1) * TAB if ch == "\t" else c + 1
                cols.append(c)
            expanded[i] = cols
        return cols[at - starts[i]]
    return column


def _anchored(lines: List[_Line]) -> None:
    """A line that goes on with the statement above, whose first word the
    writer put under a word of the line above, stays under it (when that
    is further in than the statement it goes on with): 'else if … then
    hearts else clubs' under the 'if' of 'if … then spades'."""
    for line in lines:
        if line.anchor is not None:
            above, at = line.anchor
            under = len(above.code()) - len("".join(above.parts[at:]))
            if under > len(INDENT * (line.level - 1)):
                line.indent = under


def _inner_level(opened: List[Tuple[str, int, int]]) -> int:
    return opened[-1][1] + 1 if opened else 0


def _starts_item(tok: _Token, opened: List[Tuple[str, int, int]], line_start: bool) -> bool:
    """Whether ``tok`` starts a new item of its block (or of the file):
    it sits just inside the '{' (a line's first token), or on the list of
    the block's items so far (the parser reduced what came before to it;
    that list sits just inside the '{', or after a first part such as a
    'state { … }'), or, first on its line, on such a first part."""
    if opened and opened[-1][0] == "LPAR" or _is_closer(tok):
        return False
    inside = opened[-1][2] if opened else 1
    at = tok.depth - 1
    return line_start and at == inside or tok.on_list and at in (inside + 1, inside + 2) \
        or line_start and at == inside + 1 and tok.on_part


def _level_of(tok: _Token, opened: List[Tuple[str, int, int]], last: Optional[_Token]) -> Tuple[int, bool]:
    """The level of a line that starts with ``tok`` (after ``last``), and
    whether it goes on with the statement of the line above."""
    if not opened:
        base, inside = 0, 1
    else:
        kind, level, inside = opened[-1]
        if _is_closer(tok):
            return level, False
        base = level + 1
        if kind == "LPAR":
            return base, False
    if tok.kind == "LBRACE" or tok.kind == "ELSE" and (tok.under in ("block", "single")
                                                       or tok.under.startswith("__if_stmt")):
        return base, False      # a '{' on a line of its own; an 'else' under its 'if' statement
    goes_on = not _starts_item(tok, opened, True) or last is not None and last.kind in _GOES_ON
    return base + goes_on, goes_on


def _aligned(lines: List[_Line]) -> None:
    """Words the writer lined up stay lined up, a space after the widest.
    A word stands in a column when more spaces than the usual come
    before it (two or more; three or more before a block's second item on
    the line; or a tab), and a word on a line next to it (at the same level, no
    blank line or comment between) stood at the same place from the start
    of its line, or ended where it ends (numbers put to the right); or
    when it has the usual space before it but stood where such a word
    stood (the word before it is the widest).  Each column is then put
    where its words all fit, the usual space after the widest.  A word
    with more spaces before it that no word beside it lines up with gets
    the usual space.  (So the layout depends on where the writer lined
    words up; ``format_source`` makes sure it stays.)"""
    i = 0
    while i < len(lines):
        j = i + 1
        while j < len(lines) and lines[j].gaps and not lines[j].blank_before and \
                lines[j].level == lines[i].level and not lines[j].goes_on and not lines[i].goes_on:
            j += 1
        _columns(lines[i:j])
        i = j


def _columns(run: List[_Line]) -> None:
    """The columns of a run of lines (``_aligned``), each put in place."""
    for line in run:        # (every space its least first)
        for at, least, _, _ in line.gaps:
            line.parts[at] = least
    # A word after a space may start a column (its start lines up with
    # a word's start next to it) or end one (its end does: numbers put
    # to the right, '  5' over ' 10').
    starts = _ends_of(run, lambda line, at, column: column)
    ends = _ends_of(run, lambda line, at, column: column + len(line.parts[at + 1]))
    # A word in both (a word as wide as those beside it) is in the column
    # that goes on over more lines; the other loses it.
    long_starts, long_ends = _stretches(starts), _stretches(ends)
    for k in range(len(run)):
        at_start = {at: c for c, at in starts[k].items()}
        for c, at in list(ends[k].items()):
            if at in at_start:
                if long_ends[k][c] > long_starts[k][at_start[at]]:
                    del starts[k][at_start[at]]
                else:
                    del ends[k][c]
    places = sorted({(c, 0) for found in starts for c in found} | {(c, 1) for found in ends for c in found})
    usual = [{at: least for at, least, _, _ in line.gaps} for line in run]
    # (each line's width up to a place in ``parts``, kept as the columns
    # are put from the left: a long line is not summed again for each)
    upto = [(0, 0) for _ in run]

    def before(n: int, at: int) -> int:
        i, width = upto[n]
        if at < i:
            i, width = 0, 0
        width += sum(map(len, run[n].parts[i:at]))
        upto[n] = (at, width)
        return width

    for column, right in places:
        found = ends if right else starts
        k = 0
        while k < len(run):
            m = k
            while m < len(run) and column in found[m]:
                m += 1
            if m - k > 1:
                lines = range(k, m)
                ats = [found[n][column] for n in lines]
                widths = [before(n, at) for n, at in zip(lines, ats)]
                word = [len(run[n].parts[at + 1]) if right else 0 for n, at in zip(lines, ats)]
                place = max(b + len(usual[n][at]) + w for n, at, b, w in zip(lines, ats, widths, word))
                for n, at, b, w in zip(lines, ats, widths, word):
                    run[n].parts[at] = " " * (place - b - w)
            k = max(m, k + 1)


def _stretches(found: List[Dict[int, int]]) -> List[Dict[int, int]]:
    """For each line and each of its columns, how many lines next to each
    other, that one among them, have the column (in one pass: a table of
    thousands of rows takes no longer than its rows)."""
    out: List[Dict[int, int]] = [{} for _ in found]
    since: Dict[int, int] = {}      # column -> the first line of its stretch so far
    for k in range(len(found) + 1):
        here = found[k] if k < len(found) else {}
        for c in [c for c in since if c not in here]:
            first = since.pop(c)
            for j in range(first, k):
                out[j][c] = k - first
        for c in here:
            since.setdefault(c, k)
    return out


def _ends_of(run: List[_Line], place: Any) -> List[Dict[int, int]]:
    """For each line of ``run``, the spaces before a word that lines up
    with a word on a line next to it, by ``place(line, at, column)`` (the
    column of the word's start or end, from the start of the line): place
    -> the space's place in ``parts``.  A space the writer widened before
    a word that lines up with a word beside it; then, spreading, a space
    of one before a word where a column's word stands beside it."""
    def where(k: int, wide: bool) -> Dict[int, int]:
        line = run[k]
        return {place(line, at, column): at for at, _, column, two in line.gaps
                if two or not wide}
    wide = [where(k, True) for k in range(len(run))]
    every = [where(k, False) for k in range(len(run))]
    found: List[Dict[int, int]] = []
    for k in range(len(run)):
        near = set(every[k - 1] if k else ()) | set(every[k + 1] if k + 1 < len(run) else ())
        found.append({c: at for c, at in wide[k].items() if c in near})
    # (down the lines, then up: each spreads as far as it goes, so the
    # two passes reach every line a column can spread to)
    for lines in (range(len(run)), range(len(run) - 1, -1, -1)):
        for k in lines:
            near = set(found[k - 1] if k else ()) | set(found[k + 1] if k + 1 < len(run) else ())
            for c, at in every[k].items():
                if c in near and c not in found[k]:
                    found[k][c] = at
    return found


def _written(lines: List[_Line], bridged: bool = True) -> str:
    """The lines as text, trailing comments lined up in runs: the comments
    of lines next to each other, and (``bridged``) those the writer put at
    one column with lines of code and no comment between them."""
    group_of: Dict[int, int] = {}       # line -> its first commented line
    first, last, between = -1, -1, False
    for k, line in enumerate(lines):
        code = bool(line.parts) and not line.parts[0].startswith("#")
        if not code or line.blank_before:
            first = -1
        if not code:
            continue
        if line.comment:
            if first < 0 or between and not (bridged and lines[last].comment_at == line.comment_at):
                first = k
            group_of[k] = first
            last, between = k, False
        elif first >= 0:
            between = True
    widths: Dict[int, int] = {}
    for k, first in group_of.items():
        widths[first] = max(widths.get(first, 0), len(lines[k].code()) + 2)
    out: List[str] = []
    for k, line in enumerate(lines):
        if line.blank_before and out:
            out.append("")
        if k in group_of:
            out.append(line.code().ljust(widths[group_of[k]]) + line.comment)
        else:
            out.append(line.code().rstrip())
    return "\n".join(out).rstrip("\n") + "\n" if out else ""


def run(paths: Sequence[str], check: bool, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """``rulelang fmt``: each file rewritten in place (when it changes),
    or with ``check`` only listed when it would change; ``-`` reads the
    standard input and writes the standard output.  0 when all is well,
    1 when a file does not parse, cannot be read or written, or (with
    ``check``) would change."""
    status = 0
    for path in paths:
        name = "<stdin>" if path == "-" else path
        try:
            if path == "-":
                text = stdin.read()
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print(f"{name}: cannot read: {getattr(e, 'strerror', None) or e}", file=stderr)
            status = 1
            continue
        try:
            done = format_source(text, name)
        except RulesetSyntaxError as e:
            print(e.format(), file=stderr)
            status = 1
            continue
        if check:
            if done != text:
                print(name, file=stdout)
                status = 1
        elif path == "-":
            stdout.write(done)
        elif done != text:
            try:
                _replace(path, done)
            except OSError as e:
                print(f"{name}: cannot write: {e.strerror}", file=stderr)
                status = 1
                continue
            print(f"{name}: formatted", file=stderr)
    return status


def _replace(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a new file beside it, so that a
    failure half way leaves the old file whole."""
    temporary = os.path.join(os.path.dirname(os.path.abspath(path)),
                             f".{os.path.basename(path)}.fmt-{os.getpid()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
