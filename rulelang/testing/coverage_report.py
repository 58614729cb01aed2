"""What ``coverage`` reports: every statement and part of a rule file with
the times it ran (``Statement``, ``Part``), what never ran, outermost first
(``Unreached``), and the whole (``CoverageReport``: ``format``,
``annotate``, ``to_dict``); and the walk over the checked IR that finds
them, each with its place, its words and what holds it (``build``), from
the counts ``coverage`` took (``Tally``)."""

from __future__ import annotations

import re
import typing
from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple

import attrs

from .. import ir

#: A place in the rule file: (line, column).
Key = Tuple[int, int]

_STATEMENTS: Tuple[type, ...] = typing.get_args(ir.Stmt)


def key_of(pos: Optional[ir.Pos]) -> Optional[Key]:
    """The place of a node (None for one without a position)."""
    return None if pos is None else (pos.line, pos.column)


class Tally(Protocol):
    """What the counts say about places of the rule file (``coverage._Tally``)."""

    #: place of a statement or row inside a run of plain statements -> times reached
    marked: Dict[Key, int]
    #: place of a ``choose one`` or an option -> the times each alternative was taken
    taken: Dict[Key, List[int]]
    #: place of a 'whenever' or an 'on draw' rule -> its code
    code_at: Dict[Key, int]

    def statement(self, key: Key) -> Optional[int]: ...

    def started(self, code: Optional[int]) -> Optional[int]: ...


@attrs.frozen
class Statement:
    """One statement of the rule file and the times it ran (``count``;
    None: nothing in the program counts it, which would be a bug)."""

    line: int
    column: int
    #: the statement's kind: its IR node ("Assign", "If", "Call" …)
    kind: str
    #: its own words: its line from its column, without what follows it
    #: there (another statement, a comment)
    text: str
    #: the part of the rule file it is in: "setup", "phase travel", "rule
    #: lose_a_life", 'table events row 3 "Blizzard"', 'rule act, choice
    #: "Action" option "Hunt"' …
    where: str
    count: Optional[int]
    #: its whole line of the rule file, stripped
    source: str = ""


@attrs.frozen
class Part:
    """A part of the rule file entered as a whole, and the times it was:
    a rule (called), a table (rolled or chosen on), a row (came up), a
    setup option (asked) and its alternatives, an alternative of a
    ``choose one`` (taken), a 'whenever' or an 'on draw' rule (fired)."""

    #: "rule", "table", "row", "option", "option choice", "choice",
    #: "whenever" or "on draw"
    kind: str
    #: 'rule lose_a_life', 'table events row 3 "Blizzard"', 'choice "Action" option "Hunt"' …
    name: str
    #: the part it is in ("" for one of its own: a rule, a table …)
    where: str
    line: int
    column: int
    count: Optional[int]
    #: the statements inside it
    statements: int


#: What never happening is called, for each kind of part.
_NEVER = {"statement": "never ran", "rule": "never called", "table": "never rolled",
          "row": "never came up", "option": "never asked", "option choice": "never taken",
          "choice": "never taken", "whenever": "never fired", "on draw": "never fired"}


@attrs.frozen
class Unreached:
    """A statement or part that never ran, where what holds it did: what
    lies inside it is not listed again (``inside`` says how many statements)."""

    line: int
    column: int
    #: "statement", or the kind of part
    what: str
    #: the part it is in ("" for one of its own)
    where: str
    #: a statement's line (stripped, without its comment; the statement's
    #: own words marked »so« when the line holds more), or a part's name
    text: str
    #: the statements inside it
    inside: int
    #: whether it starts its line (else ``column`` tells it from the others there)
    first_on_line: bool = True

    @property
    def never(self) -> str:
        return _NEVER[self.what]

    def format(self, filename: str) -> str:
        at = f"{filename}:{self.line}" + ("" if self.first_on_line else f":{self.column}")
        where = f" ({self.where})" if self.where else ""
        more = f"{self.inside} statement{'s' * (self.inside != 1)}"
        if not self.inside:
            more = ""
        elif self.what == "statement":
            more = f"  (and {more} inside)"
        else:
            more = f"  ({more})"
        return f"{at}: {self.never}{where}: {self.text}{more}"


@attrs.frozen
class CoverageReport:
    """What ``coverage`` found: every statement and part with its count,
    and what never ran (``unreached``, outermost first)."""

    filename: str
    title: str
    games: int
    moves: int
    turns: int
    #: the player counts played (each as often as the others, in turn)
    players: Tuple[int, ...]
    chance: str
    seconds: float
    statements: Tuple[Statement, ...]
    parts: Tuple[Part, ...]
    unreached: Tuple[Unreached, ...]
    #: games stopped at the bound on their length (``max_moves``)
    unfinished: int = 0
    #: runtime errors: one line each, with the game's seed and players
    errors: Tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return len(self.statements)

    @property
    def ran(self) -> int:
        return sum(1 for s in self.statements if s.count)

    @property
    def never_ran(self) -> Tuple[Statement, ...]:
        """Every statement that never ran (inside others that never did too)."""
        return tuple(s for s in self.statements if s.count == 0)

    @property
    def untracked(self) -> Tuple[Statement, ...]:
        """Statements nothing counted (none, unless the mapping has a bug)."""
        return tuple(s for s in self.statements if s.count is None)

    @property
    def complete(self) -> bool:
        """Whether every statement and part was reached (and counted)."""
        return not self.unreached and not self.untracked

    def by_line(self) -> Dict[int, int]:
        """{line: the most times a statement that starts on it ran}."""
        out: Dict[int, int] = {}
        for s in self.statements:
            if s.count is not None:
                out[s.line] = max(out.get(s.line, 0), s.count)
        return out

    def summary(self, filename: Optional[str] = None) -> str:
        players = _players_text(self.players)
        return (f"{filename or self.filename}: {self.ran} of {self.total} statements ran in "
                f"{self.games} games ({players}, {self.chance} chance, {self.moves} moves, "
                f"{self.turns} turns, {self.seconds:.1f}s)")

    def format(self, filename: Optional[str] = None) -> str:
        """The summary, then each thing that never ran as
        ``FILE:LINE: never ran (rule x): <its line>``, in the file's order."""
        name = filename or self.filename
        lines = [self.summary(name)]
        if self.unfinished:
            lines.append(f"{name}: {self.unfinished} games were stopped unfinished "
                         f"(too many moves)")
        lines += [f"{name}: error: {e}" for e in self.errors]
        lines += [u.format(name) for u in self.unreached]
        lines += [f"{name}:{s.line}: not counted (a bug in rulelang.testing.coverage): {s.text}"
                  for s in self.untracked]
        if self.complete:
            lines.append(f"{name}: every statement ran, every rule was called, every row came up "
                         f"and every choice was taken")
        return "\n".join(lines)

    def annotate(self, source: str) -> str:
        """The rule file ``source`` with a count in the margin of each line
        where statements or parts (a rule, a row, a choice …) start: the
        most times one of them ran, ``#####`` when none did, and a ``*``
        after the count when some did not."""
        counts: Dict[int, int] = {}
        partly = set()
        for line, count in [(s.line, s.count) for s in self.statements] + \
                [(p.line, p.count) for p in self.parts]:
            if count is None:
                continue
            counts[line] = max(counts.get(line, 0), count)
            if count == 0:
                partly.add(line)
        out = []
        for n, text in enumerate(source.splitlines(), 1):
            if n not in counts:
                margin = ""
            elif counts[n] == 0:
                margin = "#####"
            else:
                margin = f"{counts[n]}{'*' if n in partly else ''}"
            out.append(f"{margin:>9} | {text}")
        return "\n".join(out)

    def to_dict(self) -> Dict[str, Any]:
        return {"file": self.filename, "title": self.title, "games": self.games,
                "moves": self.moves, "turns": self.turns, "players": list(self.players),
                "chance": self.chance, "seconds": round(self.seconds, 3),
                "statements_total": self.total, "statements_ran": self.ran,
                "complete": self.complete, "unfinished": self.unfinished,
                "errors": list(self.errors),
                "statements": [attrs.asdict(s) for s in self.statements],
                "parts": [attrs.asdict(p) for p in self.parts],
                "unreached": [dict(attrs.asdict(u), never=u.never) for u in self.unreached]}


def _players_text(players: Sequence[int]) -> str:
    if not players:
        return "no players"
    lo, hi = min(players), max(players)
    if len(set(players)) == hi - lo + 1:
        return f"{lo} player{'s' * (lo != 1)}" if lo == hi else f"{lo}–{hi} players"
    return ", ".join(map(str, sorted(set(players)))) + " players"



# ------------------------------------------------------------------ walking the rule file

class _Node:
    """A statement or part while the report is built: its count and what holds it."""

    __slots__ = ("what", "key", "where", "text", "count", "parent", "inside", "first", "kind",
                 "source", "shown")

    def __init__(self, what: str, key: Key, where: str, text: str, count: Optional[int],
                 parent: Optional[_Node], first: bool = True, kind: str = "") -> None:
        self.what, self.key, self.where, self.text = what, key, where, text
        self.count, self.parent, self.first, self.kind = count, parent, first, kind
        self.inside = 0
        self.source = self.shown = text


class _Walk:
    """Every statement and part of a ruleset, in the file's order, with its count."""

    def __init__(self, rs: ir.Ruleset, rule_code: Dict[str, int], table_code: Dict[str, int],
                 option_code: Dict[str, int], tally: Tally) -> None:
        self.rs, self.tally = rs, tally
        self.rule_code, self.table_code, self.option_code = rule_code, table_code, option_code
        self.lines = (rs.source or "").splitlines()
        self.nodes: List[_Node] = []

    def line(self, key: Key) -> Tuple[str, bool]:
        """(the line of the file at ``key``, stripped; whether ``key`` starts it)."""
        text = self.lines[key[0] - 1] if 0 < key[0] <= len(self.lines) else ""
        return text.strip(), key[1] <= len(text) - len(text.lstrip()) + 1

    def own_text(self, node: _Node, end: Optional[int]) -> Tuple[str, str, bool]:
        """(the words of the statement at ``node``: its line from its column
        up to ``end``, the next statement there that is not inside it, with
        no comment, nor the ``;``, ``}`` or ``else`` that follow it; its line
        with those words marked »so« when the line holds more; whether
        they start the line)."""
        line, column = node.key
        full = _uncommented(self.lines[line - 1] if 0 < line <= len(self.lines) else "").rstrip()
        start = column - 1
        if node.kind == "If":           # an 'else if' is placed at its condition
            m = _ELSE_IF.search(full, 0, start)
            if m is not None:
                start = m.start(1)
        own = _trimmed(full[start:end - 1 if end else None])
        at = full.find(own, start) if own else -1
        if at < 0:
            return node.text, node.text, node.first
        first = not full[:at].strip()
        if own == full.strip():
            return own, own, first
        return own, f"{full[:at].strip()} »{own}« {full[at + len(own):].strip()}".strip(), first

    def part(self, kind: str, name: str, where: str, pos: Optional[ir.Pos],
             count: Optional[int], parent: Optional[_Node]) -> Optional[_Node]:
        key = key_of(pos)
        if key is None:
            return parent
        node = _Node(kind, key, where, name, count, parent)
        self.nodes.append(node)
        return node

    def container(self, name: str, pos: Optional[ir.Pos]) -> Optional[_Node]:
        """A part that is not counted (setup, a phase, 'every round', the reroll's cost)."""
        key = key_of(pos) or (0, 0)
        node = _Node("", key, "", name, None, None)
        self.nodes.append(node)
        return node

    def body(self, stmts: Sequence[Any], where: str, parent: Optional[_Node]) -> None:
        for item in stmts:
            if not isinstance(item, _STATEMENTS):
                continue
            s: Any = item       # (a statement: any of the kinds in ``ir.Stmt``)
            key = key_of(s.pos)
            me = parent
            if key is not None:
                text, first = self.line(key)
                me = _Node("statement", key, where, text, self.tally.statement(key), parent, first,
                           type(s).__name__)
                self.nodes.append(me)
            for f in attrs.fields(type(s)):
                value = getattr(s, f.name)
                if not isinstance(value, tuple) or not value:
                    continue
                if all(isinstance(x, _STATEMENTS) for x in value):
                    self.body(value, where, me)
                elif all(isinstance(x, ir.Choice) for x in value):
                    prompt = getattr(s, "prompt", None)
                    taken = self.tally.taken.get(key) if key is not None else None
                    for j, choice in enumerate(value):
                        name = ("choice " + (f'"{prompt}" ' if prompt else "")
                                + f'option "{choice.label}"')
                        count = taken[j] if taken is not None and j < len(taken) else None
                        node = self.part("choice", name, where, choice.pos or s.pos, count, me)
                        self.body(choice.body, f"{where}, {name}", node)

    def walk(self) -> None:
        rs, tally = self.rs, self.tally
        self.body(rs.setup, "setup", self.container("setup", rs.pos))
        if rs.turn is not None:
            if rs.turn.each_round:
                self.body(rs.turn.each_round, "every round",
                          self.container("every round", rs.turn.pos))
            for phase in rs.turn.phases:
                self.body(phase.body, f"phase {phase.name}",
                          self.container(f"phase {phase.name}", phase.pos))
        for rule in rs.rules:
            name = f"rule {rule.name}"
            node = self.part("rule", name, "", rule.pos,
                             tally.started(self.rule_code.get(rule.name)), None)
            self.body(rule.body, name, node)
        for table in rs.tables:
            name = f"table {table.name}"
            node = self.part("table", name, "", table.pos,
                             tally.started(self.table_code.get(table.name)), None)
            for row in table.rows:
                rolls = str(row.low) if row.low == row.high else f"{row.low}..{row.high}"
                row_name = f"{name} row {rolls}" + (f' "{row.label}"' if row.label else "")
                key = key_of(row.pos)
                count = tally.marked.get(key) if key is not None else None
                self.body(row.body, row_name, self.part("row", row_name, "", row.pos, count, node))
        for option in rs.options:
            name = f"option {option.name}"
            node = self.part("option", name, "", option.pos,
                             tally.started(self.option_code.get(option.name)), None)
            taken = tally.taken.get(key_of(option.pos) or (0, 0))
            for j, choice in enumerate(option.choices):
                choice_name = f'{name} "{choice.label}"'
                count = taken[j] if taken is not None and j < len(taken) else None
                self.body(choice.body, choice_name,
                          self.part("option choice", choice_name, "", choice.pos or option.pos,
                                    count, node))
        for trig in rs.triggers:
            name = f"whenever (line {trig.pos.line if trig.pos else '?'})"
            code = tally.code_at.get(key_of(trig.pos) or (0, 0))
            self.body(trig.body, name, self.part("whenever", name, "", trig.pos,
                                                 tally.started(code), None))
        for dt in rs.draw_triggers:
            name = f"on draw from {dt.deck} (line {dt.pos.line if dt.pos else '?'})"
            code = tally.code_at.get(key_of(dt.pos) or (0, 0))
            self.body(dt.body, name, self.part("on draw", name, "", dt.pos,
                                               tally.started(code), None))
        if rs.reroll is not None:
            self.body(rs.reroll.cost, "reroll", self.container("reroll", rs.reroll.pos))

    def results(self) -> Tuple[Tuple[Statement, ...], Tuple[Part, ...], Tuple[Unreached, ...]]:
        self.walk()
        on_line: Dict[int, List[_Node]] = {}
        for node in self.nodes:         # each statement counts in every part around it
            if node.what == "statement":
                on_line.setdefault(node.key[0], []).append(node)
                up = node.parent
                while up is not None:
                    up.inside += 1
                    up = up.parent
        for here in on_line.values():   # a statement's own words, where a line holds several
            here.sort(key=lambda x: x.key[1])
            for j, node in enumerate(here):
                end = next((other.key[1] for other in here[j + 1:] if not _within(other, node)),
                           None)
                node.text, node.shown, node.first = self.own_text(node, end)
        statements, parts, unreached = [], [], []
        for node in self.nodes:
            line, column = node.key
            if node.what == "statement":
                statements.append(Statement(line, column, node.kind, node.text, node.where,
                                            node.count, node.source))
            elif node.what:
                parts.append(Part(node.what, node.text, node.where, line, column, node.count,
                                  node.inside))
            if node.count == 0 and node.what and not _inside_unreached(node):
                unreached.append(Unreached(line, column, node.what, node.where, node.shown,
                                           node.inside, node.first))
        order = sorted(range(len(statements)), key=lambda i: (statements[i].line, statements[i].column))
        unreached.sort(key=lambda u: (u.line, u.column))
        return tuple(statements[i] for i in order), tuple(parts), tuple(unreached)


def _within(node: _Node, outer: _Node) -> bool:
    """Whether ``node`` lies inside ``outer``."""
    up = node.parent
    while up is not None and up is not outer:
        up = up.parent
    return up is outer


#: An 'else if' just before a statement's column (its ``If`` is placed at the condition).
_ELSE_IF = re.compile(r"(else\s+if)\s*$")
#: What may follow a statement's words before the next statement on its line.
_AFTER = re.compile(r"\s*(?:;|\belse(?:\s+if)?\s*[:{]?)\s*$")


def _trimmed(text: str) -> str:
    """A statement's words without what closes or follows it (``;``, a
    ``}`` closing a block around it, ``else``, ``else if``, ``else {``)."""
    text = text.strip()
    while True:
        before = text
        text = _AFTER.sub("", text).rstrip()
        if text.endswith("}") and text.count("}") > text.count("{"):
            text = text[:-1].rstrip()
        if text == before:
            return text


def _uncommented(text: str) -> str:
    """``text`` without a ``#`` comment (a ``#`` in quotes is text)."""
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return text[:i]
    return text


def _inside_unreached(node: _Node) -> bool:
    """Whether something around ``node`` never ran either (then it is listed, not ``node``)."""
    up = node.parent
    while up is not None:
        if up.count == 0:
            return True
        up = up.parent
    return False



def build(rs: ir.Ruleset, rule_code: Dict[str, int], table_code: Dict[str, int],
          option_code: Dict[str, int], tally: Tally
          ) -> Tuple[Tuple[Statement, ...], Tuple[Part, ...], Tuple[Unreached, ...]]:
    """Every statement and part of ``rs`` with its count, and what never ran."""
    return _Walk(rs, rule_code, table_code, option_code, tally).results()
