"""What the language server knows about one rule file: its problems, and
what each name in it means and where it is declared.

Nothing here speaks the protocol (``server`` does): ``analyse`` parses and
checks a text the way ``rulelang check`` does, then indexes it.  Names get
their meaning from the IR and from the checker's resolver (the binding it
recorded for each bare name it read: a card's property, a piece's field, a
local, a stat, a constant, a word); a name the resolver did not read (a
deck after ``draw from``, a rule after ``call``) means the declaration of
that name.  Places are 0-based lines and columns counted in characters;
the server converts them to the client's units.
"""

from __future__ import annotations

import bisect
import re
from typing import Container, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import attrs

from .. import ir
from ..check import Checker
from ..check.resolve import CARD, CONST, GLOBAL, LOCAL, PIECE, PLAYER, WORD, Resolved
from ..errors import Diagnostic, RulesetError
from ..limits import DEFAULT
from ..syntax import parse
from ..words import KEYWORD, NAME, PLACEHOLDER, STRING, Token, tokens

#: The checker's suggestion at the end of a message (``CheckerBase.nearest``).
SUGGESTION = re.compile(r" — did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?$")
_QUOTED = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")


class Place(NamedTuple):
    """A span on one line: 0-based line, first column, column past the end."""

    line: int
    start: int
    end: int


class Symbol(NamedTuple):
    """What a name stands for.  ``scope`` tells apart names that are only
    known in one place: a local's rule (or phase…), a piece field's set."""

    kind: str
    name: str
    scope: str = ""


@attrs.frozen
class Problem:
    """A diagnostic as the editor shows it: ``fix`` is the checker's
    suggestion as (the place of the misspelt name, the name meant)."""

    place: Place
    message: str
    warning: bool = False
    fix: Optional[Tuple[Place, str]] = None


@attrs.frozen
class Outline:
    """One entry of the document's outline."""

    name: str
    kind: str
    detail: str
    range: Tuple[int, int, int, int]        # start line, column, end line, column
    selection: Place
    children: Tuple["Outline", ...] = ()


@attrs.frozen
class Occurrence:
    """A name where it stands, and what it means there."""

    place: Place
    symbol: Symbol
    token: Token
    quoted: bool = False        # a card named by a quoted text


class Analysis:
    """One text parsed, checked and indexed (``analyse``)."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        # (past the parser's size limit the file is only reported as too large)
        self.tokens: List[Token] = list(tokens(text)) if len(text) <= DEFAULT.max_source_bytes else []
        self._starts = [t.offset for t in self.tokens]
        self.lines = text.split("\n")
        self._line_starts = [0]
        for line in self.lines:
            self._line_starts.append(self._line_starts[-1] + len(line) + 1)
        #: where the innermost place of locals changes: (offset, its key), in order
        self._segments: List[Tuple[int, str]] = [(0, "")]
        self._segment_starts: List[int] = [0]
        self.problems: List[Problem] = []
        self.rs: Optional[ir.Ruleset] = None
        self.resolved: Optional[Resolved] = None
        self.definitions: Dict[Symbol, Place] = {}
        self.hovers: Dict[Symbol, str] = {}
        self.occurrences: List[Occurrence] = []
        self.outline: List[Outline] = []
        #: (start offset, end offset, key) of each place locals live in
        self.regions: List[Tuple[int, int, str]] = []
        self.locals: Dict[str, Dict[str, Place]] = {}

    # ------------------------------------------------------------ lookups

    def occurrence_at(self, line: int, column: int) -> Optional[Occurrence]:
        """The name at (or just before) a place."""
        for occ in self.occurrences:
            p = occ.place
            if p.line == line and p.start <= column <= p.end:
                return occ
        return None

    def token_at(self, line: int, column: int) -> Optional[Token]:
        """The token at (or ending at) a place."""
        offset = self.offset(line, column)
        i = bisect.bisect_right(self._starts, offset) - 1
        if i >= 0:
            t = self.tokens[i]
            if t.offset <= offset <= t.offset + len(t.text):
                return t
        return None

    def offset(self, line: int, column: int) -> int:
        """The offset of a 0-based (line, column) in the text."""
        return self._line_starts[min(max(line, 0), len(self.lines))] + column

    def references(self, symbol: Symbol) -> List[Occurrence]:
        return [occ for occ in self.occurrences if occ.symbol == symbol]

    def region_of(self, offset: int) -> str:
        """The key of the innermost place of locals holding ``offset``, or ""."""
        return self._segments[bisect.bisect_right(self._segment_starts, offset) - 1][1]

    def set_regions(self, regions: List[Tuple[int, int, str]]) -> None:
        """Keep the places of locals, (start, end, key) each, nested or
        apart, and where the innermost one changes (for ``region_of``)."""
        self.regions = sorted(regions, key=lambda r: (r[0], -r[1]))
        segments: List[Tuple[int, str]] = [(0, "")]
        stack: List[Tuple[int, str]] = []

        def close_before(at: int) -> None:
            while stack and stack[-1][0] < at:
                end, _ = stack.pop()
                segments.append((end + 1, stack[-1][1] if stack else ""))

        for start, end, key in self.regions:
            close_before(start)
            segments.append((start, key))
            stack.append((end, key))
        close_before(len(self.text) + 2)
        self._segments = segments
        self._segment_starts = [at for at, _ in segments]

    def names_in_scope(self, offset: int) -> Dict[str, Symbol]:
        """Every name a rule may use at ``offset``: the locals declared there
        and every name the file declares."""
        out: Dict[str, Symbol] = {}
        for symbol in self.definitions:
            if symbol.kind != "local":
                out.setdefault(symbol.name, symbol)
        key = self.region_of(offset)
        for name in self.locals.get(key, {}):
            out[name] = Symbol("local", name, key)
        return out


def analyse(text: str, filename: str = "<text>") -> Analysis:
    """Parse, check and index ``text``: never raises for a bad text."""
    a = Analysis(text, filename)
    try:
        rs = parse(text, filename)
    except RulesetError as e:
        a.problems = [_problem(a, d) for d in e.diagnostics]
        return a
    except RecursionError:
        a.problems = [Problem(Place(0, 0, 1), "the file is nested too deeply to read")]
        return a
    a.rs = rs
    checker = Checker(rs, DEFAULT)
    try:
        errors = checker.run()
        a.problems = [_problem(a, d) for d in errors]
        a.problems += [_problem(a, d, warning=True) for d in checker.warnings]
        a.resolved = checker.resolved()
    except Exception as e:  # noqa: BLE001 - the checker on a broken file: report, keep the rest
        a.problems.append(Problem(Place(0, 0, 1), f"the checker stopped: {type(e).__name__}: {e}"))
    indexer = _Indexer(a, rs)
    indexer.run()
    _with_fixes(a, indexer.by_name)
    return a


def _problem(a: Analysis, d: Diagnostic, warning: bool = False) -> Problem:
    line, column = max(d.line - 1, 0), max(d.column - 1, 0)
    t = a.token_at(line, column) if line < len(a.lines) else None
    if t is not None and t.line == line and t.column == column:
        place = Place(line, column, t.end_column)
    else:
        width = len(a.lines[line]) if line < len(a.lines) else 0
        place = Place(line, min(column, width), min(column, width) + 1)
    return Problem(place, d.message, warning)


def _with_fixes(a: Analysis, known: Iterable[str]) -> None:
    """Each problem that ends in the checker's "did you mean 'X'?" given
    its fix (``Problem.fix``)."""
    names = set(known)
    for i, p in enumerate(a.problems):
        found = SUGGESTION.search(p.message)
        if found is not None:
            fix = _misspelt(a, p.message[:found.start()], p.place.line, p.place.start,
                            found.group(1), names)
            if fix is not None:
                a.problems[i] = attrs.evolve(p, fix=fix)


def _misspelt(a: Analysis, message: str, line: int, column: int, meant: str,
              known: Container[str]) -> Optional[Tuple[Place, str]]:
    """Where the name the suggestion replaces is: of the names the
    message quotes, the last that the file does not declare (the misspelt
    one), where it first stands at or after the problem's place (on its
    line or the next few)."""
    quoted = [q for q in _QUOTED.findall(message) if q != meant]
    unknown = [q for q in quoted if q not in known]
    if not quoted:
        return None
    wanted = (unknown or quoted)[-1]
    start = a.offset(line, column)
    i = bisect.bisect_left(a._starts, start)
    for t in a.tokens[i:i + 40]:
        if t.line > line + 3:
            break
        if t.kind in (NAME, KEYWORD) and t.text == wanted:
            return Place(t.line, t.column, t.end_column), meant
    return None


# ---------------------------------------------------------------- the index

#: When a name is not read by the resolver, the declaration it means: the
#: kinds tried in this order.
_ORDER = ("rule", "stat", "param", "const", "deck", "pile", "pieces", "table", "option", "actor",
          "phase", "card", "piece", "property", "field", "word")


class _Indexer:
    """Fills an Analysis's definitions, hovers, regions, occurrences and
    outline from the IR of a text that parsed."""

    def __init__(self, a: Analysis, rs: ir.Ruleset):
        self.a = a
        self.rs = rs
        self.by_name: Dict[str, Dict[str, Symbol]] = {}
        #: (line, column) of a name token -> what the IR says it is there
        self.fixed: Dict[Tuple[int, int], Symbol] = {}

    def run(self) -> None:
        self.declarations()
        self.local_regions()
        self.named_by_ir()
        self.index()
        self.make_outline()

    # ------------------------------------------------------------ helpers

    def offset_of(self, pos: Optional[ir.Pos]) -> int:
        if pos is None:
            return 0
        return self.a.offset(pos.line - 1, pos.column - 1)

    def find(self, pos: Optional[ir.Pos], name: str, within: int = 60) -> Optional[Token]:
        """The token naming ``name`` (a name, or a quoted text) at or after ``pos``."""
        start = self.offset_of(pos)
        i = bisect.bisect_left(self.a._starts, start)
        quoted = f'"{name}"'
        for t in self.a.tokens[i:i + within]:
            if t.text == name or t.text == quoted:
                return t
        return None

    def define(self, symbol: Symbol, pos: Optional[ir.Pos], hover: str,
               name: Optional[str] = None) -> Optional[Place]:
        t = self.find(pos, name or symbol.name)
        if t is None:
            return None
        place = Place(t.line, t.column, t.end_column)
        self.fixed.setdefault((t.line, t.column), symbol)
        if symbol not in self.a.definitions:
            self.a.definitions[symbol] = place
            self.a.hovers[symbol] = hover
            self.by_name.setdefault(symbol.name, {}).setdefault(symbol.kind, symbol)
        return place

    def source_line(self, pos: Optional[ir.Pos]) -> str:
        if pos is None or pos.line - 1 >= len(self.a.lines):
            return ""
        return self.a.lines[pos.line - 1].strip()

    def block_end(self, start: int) -> Tuple[int, int]:
        """(line, column past the end) of the declaration starting at
        offset ``start``: its braces' end when a '{' opens on its line, else
        the end of that line."""
        toks = self.a.tokens
        i = bisect.bisect_left(self.a._starts, start)
        if i >= len(toks):
            return len(self.a.lines) - 1, 0
        line = toks[i].line
        depth = 0
        for k in range(i, len(toks)):
            t = toks[k]
            if depth == 0 and t.line != line:
                break
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                depth -= 1
                if depth == 0:
                    return t.line, t.end_column
        if depth > 0:
            return len(self.a.lines) - 1, len(self.a.lines[-1])
        return line, len(self.a.lines[line])

    # ------------------------------------------------------- declarations

    def declarations(self) -> None:
        rs = self.rs
        types: Mapping[str, str] = self.a.resolved.stat_types if self.a.resolved is not None else {}
        for s in rs.stats:
            self.stat(s, {"player": "a stat of each player", "turn": "a stat of each player, "
                          "set again at the start of each of their turns",
                          "global": "a stat of the whole game"}.get(s.scope, "a stat"), types)
        for actor in rs.actors:
            self.define(Symbol("actor", actor.name), actor.pos,
                        f"**actor** `{actor.name}`: takes part without a seat; its stats: "
                        + (", ".join(f"`{s.name}`" for s in actor.stats) or "none"))
            for s in actor.stats:
                self.stat(s, f"a stat of actor `{actor.name}`", types)
            for pile in actor.piles:
                self.pile(pile, f" of actor `{actor.name}`")
        for gp in rs.params:
            title = f": {gp.title}" if gp.title else ""
            self.define(Symbol("param", gp.name), gp.pos,
                        f"**parameter** `{gp.name}` = {gp.default} (from {gp.low} to {gp.high}, "
                        f"picked when a game is made){title}")
        for c in rs.consts:
            self.define(Symbol("const", c.name), c.pos,
                        f"**constant** `{c.name}`\n\n```rulelang\n{self.source_line(c.pos)}\n```")
        for d in rs.decks:
            self.deck(d)
        for p in rs.piles:
            self.pile(p, "")
        for ps in rs.pieces:
            self.pieces(ps)
        for t in rs.tables:
            self.define(Symbol("table", t.name), t.pos,
                        f"**table** `{t.name}`: rolled on with a d{t.sides}, {len(t.rows)} rows")
        for r in rs.rules:
            params = ", ".join(p.name if p.type == "number" else f"{p.name}: {p.type}"
                               for p in r.params)
            gives = f" gives {r.gives}" if r.gives else ""
            self.define(Symbol("rule", r.name), r.pos,
                        f"**rule** `{r.name}` ({params or 'no parameters'}){gives}\n\n"
                        f"```rulelang\nrule {r.name}" + (f" ({params})" if params else "")
                        + f"{gives}\n```")
        for o in rs.options:
            self.define(Symbol("option", o.name), o.pos,
                        f"**option** `{o.name}`: chosen at setup" + (f", \"{o.prompt}\"" if o.prompt
                                                                     else ""))
        if rs.turn is not None:
            for i, ph in enumerate(rs.turn.phases):
                self.define(Symbol("phase", ph.name), ph.pos,
                            f"**phase** `{ph.name}`: phase {i + 1} of {len(rs.turn.phases)} of a turn")
        if self.a.resolved is not None:
            for name, kind in self.a.resolved.card_props.items():
                self.by_name.setdefault(name, {}).setdefault("property", Symbol("property", name))
                self.a.hovers.setdefault(Symbol("property", name),
                                         f"**card property** `{name}` ({kind})")
            for word, stat in self.a.resolved.word_stats.items():
                self.by_name.setdefault(word, {}).setdefault("word", Symbol("word", word))
                self.a.hovers.setdefault(Symbol("word", word),
                                         f"**word**: a value of `{stat}`")

    def stat(self, s: ir.Stat, what: str, types: Mapping[str, str]) -> None:
        kind = types.get(s.name)
        facts = [f"starts at {_value(s.initial) or 'a value worked out at setup'}"]
        if s.values:
            facts = [f"one of {', '.join(s.values)}"]
        if s.spaces:
            facts.append("a track of " + ", ".join(sp.name for sp in s.spaces))
        if s.min is not None:
            facts.append(f"min {_value(s.min)}")
        if s.max is not None:
            facts.append(f"max {_value(s.max)}")
        if s.sight:
            facts.append(s.sight)
        if s.scale:
            facts.append("with a scale")
        typed = f" ({kind})" if kind else ""
        self.define(Symbol("stat", s.name), s.pos,
                            f"**stat** `{s.name}`{typed}: {what}; " + ", ".join(facts))
        for v in s.values or ():
            self.define(Symbol("word", v), s.pos, f"**word**: a value of `{s.name}`")
        for sp in s.spaces or ():
            for p in sp.props:
                self.printed_word(p, f"space `{sp.name}`")
            props = ", ".join(f"{p.name} {_value(p.value)}" for p in sp.props)
            self.define(Symbol("word", sp.name), sp.pos,
                        f"**space** `{sp.name}` of track `{s.name}`" + (f": {props}" if props else ""))

    def printed_word(self, p: "ir.Prop | ir.PieceProp", on: str) -> None:
        """A word printed on a component (``terrain jungle``), declared
        where it is first printed."""
        word = p.value.name if isinstance(p.value, ir.Name) else ""
        if word and not {"const", "param"} & set(self.by_name.get(word, {})):
            stat = self.a.resolved.word_stats.get(word) if self.a.resolved is not None else None
            self.define(Symbol("word", word), p.value.pos or p.pos,
                        f"**word** `{word}`, printed on {on}" + (f" (a value of `{stat}`)" if stat else ""))

    def deck(self, d: ir.Deck) -> None:
        count = sum(c.count for c in d.cards)
        extra = f", refilled from `{d.refill_from}`" if d.refill_from else ""
        own = " (each player has one of their own)" if d.per_player else ""
        self.define(Symbol("deck", d.name), d.pos,
                    f"**deck** `{d.name}`{own}: {count} cards of {len(d.cards)} kinds{extra}")
        for c in d.cards:
            props = ", ".join(f"{p.name} {_value(p.value)}" for p in c.props)
            copies = f"x({c.count_of})" if c.count_of else f"x{c.count}"
            self.define(Symbol("card", c.name), c.pos,
                        f"**card** \"{c.name}\" of deck `{d.name}`, {copies}"
                        + (f": {props}" if props else ""))
            for p in c.props:
                self.printed_word(p, f"card \"{c.name}\"")
                kind = self.a.resolved.card_props.get(p.name, "") if self.a.resolved else ""
                self.define(Symbol("property", p.name), p.pos,
                            f"**card property** `{p.name}`" + (f" ({kind})" if kind else ""))

    def pile(self, p: ir.Pile, owner: str) -> None:
        facts = [w for w, on in (("one per player", p.per_player), ("hidden", p.hidden)) if on]
        self.define(Symbol("pile", p.name), p.pos,
                    f"**pile** `{p.name}`{owner}" + (f": {', '.join(facts)}" if facts else ""))

    def pieces(self, ps: ir.PieceSet) -> None:
        board = " (a board)" if ps.links else ""
        fields = sorted({st.name for st in ps.state} | {p.name for pc in ps.pieces for p in pc.props})
        self.define(Symbol("pieces", ps.name), ps.pos,
                    f"**pieces** `{ps.name}`{board}: {len(ps.pieces)} pieces"
                    + (f"; fields {', '.join(fields)}" if fields else ""))
        for st in ps.state:
            self.define(Symbol("field", st.name, ps.name), st.pos,
                        f"**field** `{st.name}` of each piece of `{ps.name}` (changes in play), "
                        + (f"one of {', '.join(st.values)}" if st.values
                           else f"starts at {_value(st.initial)}"))
            for v in st.values or ():
                self.define(Symbol("word", v), st.pos,
                            f"**word**: a value of `{st.name}` of the pieces of `{ps.name}`")
        for pc in ps.pieces:
            props = ", ".join(f"{p.name} {_value(p.value)}" for p in pc.props)
            self.define(Symbol("piece", pc.name), pc.pos,
                        f"**piece** \"{pc.name}\" of `{ps.name}`" + (f": {props}" if props else ""))
            for p in pc.props:
                self.define(Symbol("field", p.name, ps.name), p.pos,
                            f"**field** `{p.name}` of the pieces of `{ps.name}`")
                self.printed_word(p, f"piece \"{pc.name}\" of `{ps.name}`")
        for name in sorted({p.name for pc in ps.pieces for p in pc.props}):
            # a field no line spells out (a grid's x and y): declared with the set
            self.define(Symbol("field", name, ps.name), ps.pos,
                        f"**field** `{name}` of the pieces of `{ps.name}` (made by its declaration)",
                        name=ps.name)

    # ------------------------------------------------------------- locals

    def local_regions(self) -> None:
        """The places locals live in (a rule, a phase, setup, a trigger, a
        table, an option…), and the locals each declares."""
        rs = self.rs
        places: List[Tuple[str, Optional[ir.Pos], object]] = []
        regions: List[Tuple[int, int, str]] = []
        places += [(f"rule {r.name}", r.pos, r) for r in rs.rules]
        if rs.turn is not None:
            places.append(("turn", rs.turn.pos, rs.turn))
            places += [(f"phase {ph.name}", ph.pos, ph) for ph in rs.turn.phases]
        places += [(f"table {t.name}", t.pos, t) for t in rs.tables]
        places += [(f"option {o.name}", o.pos, o) for o in rs.options]
        places += [(f"whenever {i}", t.pos, t) for i, t in enumerate(rs.triggers)]
        places += [(f"on draw {i}", t.pos, t) for i, t in enumerate(rs.draw_triggers)]
        places += [(f"end {i}", e.pos, e) for i, e in enumerate(rs.endings)]
        places += [(f"score {i}", s.pos, s) for i, s in enumerate(rs.score)]
        if rs.reroll is not None:
            places.append(("reroll", rs.reroll.pos, rs.reroll))
        if rs.setup:
            first = getattr(rs.setup[0], "pos", None)
            if first is not None:
                # setup's braces: the nearest 'setup' keyword before its first statement
                at = self.offset_of(first)
                i = bisect.bisect_left(self.a._starts, at)
                for t in reversed(self.a.tokens[:i]):
                    if t.text == "setup":
                        places.append(("setup", ir.Pos(t.line + 1, t.column + 1), rs.setup))
                        break
        for key, pos, node in places:
            if pos is None:
                continue
            start = self.offset_of(pos)
            end_line, end_col = self.block_end(start)
            regions.append((start, self.a.offset(end_line, end_col), key))
            found: Dict[str, Place] = {}
            for child in _walk(node):
                for name in _binds(child):
                    if name in found:
                        continue
                    tok = self.find(getattr(child, "pos", None) or pos, name, within=200)
                    if tok is not None:
                        found[name] = Place(tok.line, tok.column, tok.end_column)
                        symbol = Symbol("local", name, key)
                        self.a.definitions.setdefault(symbol, found[name])
                        self.a.hovers.setdefault(symbol, _local_hover(child, name, key))
            self.a.locals[key] = found
        self.a.set_regions(regions)

    def named_by_ir(self) -> None:
        """The names whose kind the IR node holding them says, where the
        same name could mean something else (``sum of food in hand``: a
        card property, though a stat may be called ``food`` too)."""
        fields = {ir.SumCards: (("prop", "property"),), ir.Call: (("rule", "rule"),),
                  ir.RuleValue: (("rule", "rule"),), ir.RollOn: (("table", "table"),),
                  ir.ChooseRow: (("table", "table"),), ir.PileRef: (("name", "pile"),),
                  ir.Skip: (("phase", "phase"),), ir.ChooseOption: (("option", "option"),)}
        for node in _walk(self.rs):
            for field, kind in fields.get(type(node), ()):
                name = getattr(node, field, None)
                pos = getattr(node, "pos", None)
                if isinstance(name, str) and pos is not None:
                    if name in self.a.locals.get(self.a.region_of(self.offset_of(pos)), {}):
                        continue        # cards a choice keeps ('as redraw'): a local
                    t = self.find(pos, name, within=20)
                    known = self.by_name.get(name, {})
                    if kind == "pile" and "pile" not in known and "deck" in known:
                        kind = "deck"       # a pile reference may name a deck
                    if t is not None:
                        self.fixed.setdefault((t.line, t.column), Symbol(kind, name))

    # -------------------------------------------------------------- index

    def index(self) -> None:
        a = self.a
        bindings: Dict[Tuple[int, int], str] = {}
        piece_sets: Dict[Tuple[int, int], str] = {}
        if a.resolved is not None and a.rs is not None:
            for node in _walk(a.rs):
                if isinstance(node, ir.Name) and node.pos is not None:
                    b = a.resolved.binding(node)
                    if b is not None:
                        bindings[(node.pos.line - 1, node.pos.column - 1)] = b.kind
                        if b.kind == PIECE:
                            piece_sets[(node.pos.line - 1, node.pos.column - 1)] = b.pieces
        for t in a.tokens:
            if t.kind == STRING:
                self.in_text(t)
                continue
            if t.kind not in (NAME, KEYWORD):
                continue
            key = a.region_of(t.offset)
            local = a.locals.get(key, {})
            if t.kind == KEYWORD and t.text not in local and (t.line, t.column) not in self.fixed:
                continue        # a keyword, unless it names something here ('deck cards')
            symbol = self.fixed.get((t.line, t.column)) or self.meaning(t, bindings.get((t.line, t.column)),
                                  piece_sets.get((t.line, t.column), ""), key)
            if symbol is not None:
                a.occurrences.append(Occurrence(Place(t.line, t.column, t.end_column), symbol, t))

    def in_text(self, t: Token) -> None:
        """A quoted text: a card's or piece's name, or a log line's placeholders."""
        inner = t.text[1:-1] if t.text.endswith('"') and len(t.text) > 1 else t.text[1:]
        for kind in ("card", "piece"):
            if kind in self.by_name.get(inner, {}):
                self.a.occurrences.append(Occurrence(Place(t.line, t.column, t.end_column),
                                                     Symbol(kind, inner), t, quoted=True))
                return
        key = self.a.region_of(t.offset)
        for m in PLACEHOLDER.finditer(t.text):
            name = m.group(1)
            sub = Token(NAME, name, t.offset + m.start(1), t.line, t.column + m.start(1))
            symbol = self.meaning(sub, None, "", key)
            if symbol is not None:
                self.a.occurrences.append(Occurrence(Place(sub.line, sub.column, sub.end_column),
                                                     symbol, sub))

    def meaning(self, t: Token, binding: Optional[str], pieces: str, key: str) -> Optional[Symbol]:
        """What the name token ``t`` means: the resolver's binding when it
        read it, a local of its place, else the declaration of that name."""
        name = t.text
        if binding == LOCAL or (binding is None and name in self.a.locals.get(key, {})):
            return Symbol("local", name, key)
        if binding == CARD:
            return Symbol("property", name)
        if binding == PIECE:
            return Symbol("field", name, pieces)
        if binding in (PLAYER, GLOBAL):
            return Symbol("stat", name)
        if binding == CONST:
            kinds = self.by_name.get(name, {})
            return kinds.get("param") or kinds.get("const") or Symbol("const", name)
        if binding == WORD:
            return Symbol("word", name)
        known = self.by_name.get(name)
        if not known:
            return None
        for kind in _ORDER:
            if kind in known:
                return known[kind]
        return None

    # ------------------------------------------------------------ outline

    def make_outline(self) -> None:
        rs, out = self.rs, self.a.outline
        groups: Dict[str, List[Outline]] = {}
        for s in rs.stats:
            item = self.entry(Symbol("stat", s.name), s.pos, "variable", s.scope)
            if item is not None:
                groups.setdefault({"player": "per player", "turn": "per turn"}.get(s.scope, "global"),
                                  []).append(item)
        for title, items in groups.items():
            out.append(self.group(title, "namespace", items))
        for gp in rs.params:
            self.add(out, Symbol("param", gp.name), gp.pos, "constant", "param")
        for c in rs.consts:
            self.add(out, Symbol("const", c.name), c.pos, "constant", "const")
        for actor in rs.actors:
            kids = [e for e in (self.entry(Symbol("stat", s.name), s.pos, "variable", "stat")
                                for s in actor.stats) if e is not None]
            self.add(out, Symbol("actor", actor.name), actor.pos, "object", "actor", kids)
        for d in rs.decks:
            kids = [e for e in (self.entry(Symbol("card", c.name), c.pos, "enum_member",
                                           f"x{c.count}") for c in d.cards) if e is not None]
            self.add(out, Symbol("deck", d.name), d.pos, "class", "deck", kids)
        for pile in rs.piles:
            self.add(out, Symbol("pile", pile.name), pile.pos, "array", "pile")
        for ps in rs.pieces:
            kids = [e for e in (self.entry(Symbol("piece", pc.name), pc.pos, "enum_member", "")
                                for pc in ps.pieces[:200]) if e is not None]
            self.add(out, Symbol("pieces", ps.name), ps.pos, "struct",
                     "board" if ps.links else "pieces", kids)
        for t in rs.tables:
            self.add(out, Symbol("table", t.name), t.pos, "struct", f"table d{t.sides}")
        for r in rs.rules:
            self.add(out, Symbol("rule", r.name), r.pos, "function", "rule")
        for o in rs.options:
            self.add(out, Symbol("option", o.name), o.pos, "enum", "option")
        if rs.turn is not None and rs.turn.pos is not None:
            kids = [e for e in (self.entry(Symbol("phase", ph.name), ph.pos, "method", "phase")
                                for ph in rs.turn.phases) if e is not None]
            out.append(self.block("turn", "namespace", "", rs.turn.pos, kids))
        for start, _, key in self.a.regions:
            if key == "setup":
                line, col = self.line_col(start)
                out.append(self.block("setup", "namespace", "", ir.Pos(line + 1, col + 1), []))
        for trig in rs.triggers:
            if trig.pos is not None:
                out.append(self.block("whenever", "event", self.source_line(trig.pos), trig.pos, []))
        for dt in rs.draw_triggers:
            if dt.pos is not None:
                out.append(self.block(f"on draw from {dt.deck}", "event", "", dt.pos, []))
        for e in rs.endings:
            if e.pos is not None:
                out.append(self.block(f"end \"{e.name}\"", "event", "", e.pos, []))
        if rs.score and rs.score[0].pos is not None:
            out.append(self.block("score", "namespace", "", rs.score[0].pos, []))
        out.sort(key=lambda o: (o.range[0], o.range[1]))

    def line_col(self, offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(self.a._line_starts, offset) - 1
        return line, offset - self.a._line_starts[line]

    def entry(self, symbol: Symbol, pos: Optional[ir.Pos], kind: str, detail: str,
              children: Sequence[Outline] = ()) -> Optional[Outline]:
        place = self.a.definitions.get(symbol)
        if place is None or pos is None:
            return None
        start = min(self.offset_of(pos), self.a.offset(place.line, place.start))
        sl, sc = self.line_col(start)
        el, ec = self.block_end(start)
        for kid in children:
            if (kid.range[2], kid.range[3]) > (el, ec):
                el, ec = kid.range[2], kid.range[3]
        return Outline(symbol.name, kind, detail, (sl, sc, el, ec), place, tuple(children))

    def add(self, out: List[Outline], symbol: Symbol, pos: Optional[ir.Pos], kind: str,
            detail: str, children: Sequence[Outline] = ()) -> None:
        item = self.entry(symbol, pos, kind, detail, children)
        if item is not None:
            out.append(item)

    def block(self, name: str, kind: str, detail: str, pos: ir.Pos,
              children: Sequence[Outline]) -> Outline:
        start = self.offset_of(pos)
        sl, sc = self.line_col(start)
        el, ec = self.block_end(start)
        t = self.a.token_at(sl, sc)
        sel = Place(sl, sc, t.end_column if t is not None and t.line == sl else sc + 1)
        return Outline(name, kind, detail, (sl, sc, el, ec), sel, tuple(children))

    def group(self, title: str, kind: str, items: List[Outline]) -> Outline:
        first = min(items, key=lambda o: (o.range[0], o.range[1]))
        last = max(items, key=lambda o: (o.range[2], o.range[3]))
        # the block's keyword: the 'per' or 'global' before its first stat
        start = (first.range[0], first.range[1])
        i = bisect.bisect_left(self.a._starts, self.a.offset(*start))
        for t in reversed(self.a.tokens[max(0, i - 6):i]):
            if t.text in ("per", "global"):
                start = (t.line, t.column)
                break
        sel = Place(start[0], start[1], start[1] + len(title.split()[0]))
        return Outline(title, kind, f"{len(items)} stats", (start[0], start[1], last.range[2],
                                                            last.range[3]), sel, tuple(items))


def _value(e: object) -> str:
    """A literal or bound as written; "" for an expression."""
    if isinstance(e, ir.Num):
        return str(e.value)
    if isinstance(e, ir.Bool):
        return "yes" if e.value else "no"
    if isinstance(e, ir.NoneLit):
        return "none"
    if isinstance(e, ir.Name):
        return e.name
    return ""


def _walk(node: object) -> Iterable[object]:
    """Every node under ``node`` (itself first), without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):        # a body: its statements
            stack.extend(reversed(n))
            continue
        yield n
        stack.extend(reversed(ir.child_list(n)))


def _binds(node: object) -> Tuple[str, ...]:
    """The local names a node declares: a rule's parameters, a 'let', a
    loop's or a choice's variable."""
    if isinstance(node, ir.Let):
        return (node.name,)
    if isinstance(node, ir.Rule):
        return tuple(p.name for p in node.params)
    var = getattr(node, "var", None)
    return (var,) if isinstance(var, str) else ()


def _local_hover(node: object, name: str, key: str) -> str:
    if isinstance(node, ir.Rule):
        for p in node.params:
            if p.name == name:
                return f"**parameter** `{name}` of {key} ({p.type})"
    if isinstance(node, ir.Let):
        return f"**local** `{name}` of {key} (let)"
    return f"**local** `{name}` of {key}: the {type(node).__name__} statement's variable"
